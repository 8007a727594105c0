// The translation unit that compiles the precompiled headers (OPSIM_PCH, CMakeLists.txt).
