// A player-turn played step by step (docs/rules.md B1.3): the answers `opsim play` prints and the
// game API sends, one JSON for both (docs/api.md, "Steps").
#pragma once

#include <nlohmann/json.hpp>

#include "opsim/db/step_log.h"
#include "opsim/query/source.h"

namespace opsim::query {

// What the game waits for: {"waiting", "side", "phase", "text"}, and by what it waits for:
// "hex", "attacked", "result", "floods", "retreat_to" (the rules' choice first), "units".
nlohmann::json ToJson(const ops::Prompt& p, const map::Theater& t);

// A step's answer: the player-turn and its step count, the events and rolls this step added
// (with their rules, units, hexes and numbers), what the game waits for now (the next
// player-turn's once this one is logged), whether the last step may be taken back, the state
// hash; with "logged": true when the step ended the player-turn, now in the log.
nlohmann::json ToJson(const db::StepRecord& r, const db::StepSession& session);

// Where a player-turn in play stands: its number, steps, prompt, undo and state hash.
nlohmann::json PlayStatusJson(const db::StepSession& session);
// The same with everything the player-turn did so far, "events" and "rolls" as a step's: for a
// table that joins the player-turn late.
nlohmann::json PlayJson(const db::StepSession& session);
// The position in play, for the position queries (view.h PositionJson).
LoadedGame PositionInPlay(const db::StepSession& session);

// The odds an attack would be fought at (db::StepSession::Preview): "hex", "attackers",
// "attack" and "defense" (strengths), "column", "shift" and "odds" (the column shifted to), "text"
// (as the combat roll says it), "floods" (the owner's attempts open to him, 41.A.4) and "rule".
nlohmann::json ToJson(const ops::AttackPreview& p, const map::Theater& t,
                      const ops::RuleTables& tables);
std::string PreviewText(const nlohmann::json& preview);

// The text the CLI prints for a step's answer and for where a player-turn stands.
std::string StepText(const nlohmann::json& answer);

}  // namespace opsim::query
