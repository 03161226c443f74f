#!/usr/bin/env python3
"""Writes crates/server/src/openapi.json, the service's OpenAPI document.

The document is data: edit this file, run it, commit both. The server's
test `openapi_documents_every_route` checks that the document and the
router list exactly the same routes.
"""
import json
import pathlib

OUT = pathlib.Path(__file__).resolve().parents[2] / "crates/server/src/openapi.json"

ERR = {"description": "error", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
PLAYER = [{"player": []}]
OPERATOR = [{"operator": []}]
PAGE = [
    {"name": "before", "in": "query", "schema": {"type": "integer", "minimum": -9223372036854775808, "maximum": 9223372036854775807},
     "description": "only items with id below this (the previous page's next_before)"},
    {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 500, "default": 50}},
]
ID = [{"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}]
EXTERNAL_ID = [{"name": "external_id", "in": "path", "required": True,
                "schema": {"type": "string", "pattern": "^[A-Za-z0-9._:@-]{1,128}$"}}]
IDEMPOTENCY_KEY = {"name": "Idempotency-Key", "in": "header", "required": True,
                   "schema": {"type": "string", "pattern": "^[!-~]{1,128}$"}}


def ok(desc, schema=None, ctype="application/json"):
    r = {"description": desc}
    if schema is not None:
        s = {"$ref": "#/components/schemas/" + schema} if isinstance(schema, str) else schema
        r["content"] = {ctype: {"schema": s}}
    return r


def op(summary, responses, security, body=None, params=None):
    o = {"summary": summary, "responses": {**responses, "default": ERR}, "security": security}
    if body:
        o["requestBody"] = {"required": True, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/" + body}}}}
    if params:
        o["parameters"] = params
    return o


def obj(**props):
    return {"type": "object", "properties": props}


INT = {"type": "integer"}
AMOUNT = {"type": "integer", "minimum": 1, "maximum": 9007199254740991}
COMMITMENT = {"type": "string", "pattern": "^[0-9a-f]{64}$"}
# A client seed a player chooses (core's ClientSeed::parse_chosen): printable
# text, no control, bidirectional or invisible formatting character. The
# limit is 64 UTF-8 bytes, which JSON Schema cannot say; maxLength counts
# characters, so it is exact for ASCII seeds only.
CHOSEN_CLIENT_SEED = {
    "type": "string", "minLength": 1, "maxLength": 64,
    "pattern": "^[^\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff\ufff9-\ufffb]+$",
    "description": "1 to 64 UTF-8 bytes of printable text: no control, bidirectional or invisible formatting character",
}
STR = {"type": "string"}
ANY = {"type": "object"}

paths = {
    "/healthz": {"get": op("Health: the database answers", {"200": ok("healthy", obj(status={"const": "ok"}))}, [])},
    "/metrics": {"get": op("Counters and gauges in the Prometheus text format", {"200": ok("metrics", STR, "text/plain")}, [])},
    "/v1/openapi.json": {"get": op("This document", {"200": ok("the OpenAPI document", ANY)}, [])},
    "/v1/players": {"post": op("Create an anonymous player account", {"201": ok("created; the token is shown once", "PlayerCreated")}, [])},
    "/v1/me": {"get": op("The caller's account", {"200": ok("account", "Me")}, PLAYER)},
    "/v1/seeds": {"get": op("The current seed pair (commitment, client seed, next nonce)", {"200": ok("pair", "SeedPair")}, PLAYER)},
    "/v1/seeds/client": {"put": op("Set the client seed before the pair's first bet", {"200": ok("pair", "SeedPair")}, PLAYER, body="SetClientSeed")},
    "/v1/seeds/rotate": {"post": op("Reveal the current pair and commit a new one", {"200": ok("rotation", "Rotation")}, PLAYER)},
    "/v1/seeds/revealed": {"get": op("Revealed pairs, newest first", {"200": ok("page", "RevealedPage")}, PLAYER, params=PAGE)},
    "/v1/dice/bets": {
        "post": op("Place a dice_v1 bet", {"200": ok("the settled bet (durable)", "Bet")}, PLAYER, body="NewBet",
                   params=[IDEMPOTENCY_KEY]),
        "get": op("Bet history, newest first", {"200": ok("page", "BetPage")}, PLAYER,
                  params=[{"name": "pair_id", "in": "query", "schema": {"type": "integer", "minimum": -9223372036854775808, "maximum": 9223372036854775807}}] + PAGE),
    },
    "/v1/records": {"get": op("Revealed records, newest first", {"200": ok("page", "RecordPage")}, PLAYER, params=PAGE)},
    "/v1/records/export": {"get": op("All the player's records as JSON Lines (fairseed verify reads it unchanged)",
                                     {"200": ok("records", STR, "application/x-ndjson")}, PLAYER)},
    "/v1/records/{id}": {"get": op("One of the player's records", {"200": ok("record", "RecordView")}, PLAYER, params=ID)},
    "/v1/selfpoker/hands": {"post": op("Start a selfpoker hand: seed committed, no card yet", {"201": ok("state message", "SelfpokerMessage")}, PLAYER, body="NewHand")},
    "/v1/selfpoker/hands/{id}": {"get": op("The hand's latest state message", {"200": ok("state message", "SelfpokerMessage")}, PLAYER, params=ID)},
    "/v1/selfpoker/hands/{id}/next": {"post": op("Next stage: preflop, flop, turn, river, hand_end (reveals, archives)",
                                                 {"200": ok("state message", "SelfpokerMessage")}, PLAYER, params=ID)},
    "/v1/chess/seeds": {"post": op("Commit a chess seed for this connection", {"201": ok("seed", obj(seed_id=STR, commitment=STR))}, PLAYER)},
    "/v1/chess/seeks": {
        "post": op("Seek (or challenge `opponent`) with a committed seed and a client seed", {"200": ok("seek", obj(seek_id=STR, opponent={"type": ["integer", "null"]}))}, PLAYER, body="UseChessSeed"),
        "get": op("Open seeks the caller may accept", {"200": ok("seeks", obj(seeks={"type": "array", "items": obj(seek_id=STR, commitment=STR, challenge={"type": "boolean"})}))}, PLAYER),
    },
    "/v1/chess/seeks/{id}/accept": {"post": op("Accept a seek with a committed seed: colours drawn", {"200": ok("game", "ChessGame")}, PLAYER, body="UseChessSeed", params=ID)},
    "/v1/chess/bot": {"post": op("Play a bot with a committed seed: colours drawn", {"200": ok("game", "ChessGame")}, PLAYER, body="UseChessSeed")},
    "/v1/chess/games/{id}": {"get": op("One of the caller's games", {"200": ok("game", "ChessGame")}, PLAYER, params=ID)},
    "/v1/chess/games/{id}/finish": {"post": op("End the game: both seeds revealed, a chess_colour_v1 record each", {"200": ok("record", obj(game_id=STR, record={"$ref": "#/components/schemas/RecordView"}))}, PLAYER, params=ID)},
    "/v1/events": {"get": op("Server-Sent Events of one topic (dice, poker:<table>, match:<id>, selfpoker:<hand>), filtered for the caller",
                             {"200": ok("event stream", STR, "text/event-stream")}, PLAYER + OPERATOR,
                             params=[{"name": "topic", "in": "query", "required": True, "schema": STR}])},
    "/v1/poker/hands": {"get": op("The caller's hands in the current session of every table they sat at, newest first: session commitment, hand_commitment, deck_root (no card)", {"200": ok("hands", obj(hands={"type": "array", "items": obj(table=STR, session=STR, session_commitment=STR, n=INT, seat=INT, hand_commitment=STR, deck_root=STR, street=INT)}))}, PLAYER, params=[{"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 500, "default": 100}}])},
    "/v1/poker/tables": {"post": op("Open a poker table and its first seed session", {"201": ok("table", "PokerTable")}, OPERATOR, body="NewTable")},
    "/v1/poker/tables/{id}": {"get": op("The table: current session commitment, seats", {"200": ok("table", "PokerTable")}, PLAYER + OPERATOR, params=ID)},
    "/v1/poker/tables/{id}/seats": {"post": op("Sit (or re-seed after a rotation) with a client seed and the commitment shown", {"200": ok("seat", obj(table_id=STR, seat=INT))}, PLAYER, body="Sit", params=ID)},
    "/v1/poker/tables/{id}/leave": {"post": op("Leave: a poker_hmac_v1_proof record per hand played; the session rotates if the table empties", {"200": ok("proofs", obj(records={"type": "array", "items": {"$ref": "#/components/schemas/RecordView"}}, session_rotated={"type": "boolean"}))}, PLAYER, params=ID)},
    "/v1/poker/tables/{id}/hands": {"post": op("Start the next hand: hand_commitment and deck_root, no card", {"200": ok("hand", obj(event=STR, n=INT, seats=ANY, hand_commitment=STR, deck_root=STR))}, OPERATOR, params=ID)},
    "/v1/poker/tables/{id}/hands/{n}": {"get": op("The caller's hole cards and the board so far", {"200": ok("view", ANY)}, PLAYER, params=ID + [{"name": "n", "in": "path", "required": True, "schema": INT}])},
    "/v1/poker/tables/{id}/hands/{n}/street": {"post": op("Deal the next street (flop, turn, river)", {"200": ok("street", obj(event=STR, n=INT, street=INT, board={"type": "array", "items": INT}))}, OPERATOR, params=ID + [{"name": "n", "in": "path", "required": True, "schema": INT}])},
    "/v1/matches": {"post": op("Open a match_seed_v2 match (commitment drawn)", {"201": ok("match", "Match")}, OPERATOR, body="OpenMatch")},
    "/v1/matches/{id}": {"get": op("A match", {"200": ok("match", "Match")}, OPERATOR, params=ID)},
    "/v1/matches/{id}/client-seeds": {"post": op("A player's client seed, with the commitment the player was shown",
                                                 {"200": ok("match", "Match")}, OPERATOR, body="SubmitSeed", params=ID)},
    "/v1/matches/{id}/start": {"post": op("Start: every client seed is in; draws the seat order", {"200": ok("match", "Match")}, OPERATOR, params=ID)},
    "/v1/matches/{id}/draws": {
        "post": op("Draw the game's next step (durable before the answer)", {"200": ok("draw", "Draw")}, OPERATOR, body="DrawStep", params=ID),
        "get": op("The match's log in order", {"200": ok("log", {"type": "array", "items": {"$ref": "#/components/schemas/Draw"}})}, OPERATOR,
                  params=ID + [{"name": "from", "in": "query", "schema": INT}, {"name": "limit", "in": "query", "schema": INT}]),
    },
    "/v1/matches/{id}/finish": {"post": op("Finish: reveal the seed, store the match_seed_v2 record", {"200": ok("finished", obj(match={"$ref": "#/components/schemas/Match"}, record={"$ref": "#/components/schemas/RecordView"}))}, OPERATOR, params=ID)},
    "/v1/operator/players": {"post": op("Create the player for one of the operator's users (idempotent by external_id; the token is shown only on creation)",
                                        {"201": ok("created, with its token and login_url", "OperatorPlayer"), "200": ok("already there; no token", "OperatorPlayer")},
                                        OPERATOR, body="NewOperatorPlayer")},
    "/v1/operator/players/{external_id}/token": {
        "post": op("Issue a new token (the old one stops working)", {"200": ok("the new token and login_url", "OperatorPlayer")}, OPERATOR, params=EXTERNAL_ID),
        "delete": op("Revoke the token (none works until the next rotation)", {"200": ok("revoked", "OperatorPlayer")}, OPERATOR, params=EXTERNAL_ID),
    },
    "/v1/operator/players/{external_id}/grants": {"post": op("Grant free play chips once per Idempotency-Key (a ledger entry)", {"200": ok("the grant", "ChipGrant")}, OPERATOR,
                                                             body="NewGrant", params=EXTERNAL_ID + [IDEMPOTENCY_KEY])},
    "/v1/operator/records": {"post": op("Import a revealed record that verifies (e.g. match_seed_v1)", {"201": ok("stored", "RecordView")}, OPERATOR, body="AnyRecord")},
    "/v1/operator/records/export": {"get": op("Every record as JSON Lines", {"200": ok("records", STR, "application/x-ndjson")}, OPERATOR)},
    "/v1/operator/records/{id}": {"get": op("Any record", {"200": ok("record", "RecordView")}, OPERATOR, params=ID)},
}

schemas = {
    "Error": {"type": "object", "required": ["code", "message"], "properties": {"code": STR, "message": STR, "field": STR}},
    "SeedPair": obj(pair_id=INT, commitment=STR, client_seed=STR, next_nonce=INT),
    "PlayerCreated": obj(player_id=INT, token=STR, balance=INT, seed_pair={"$ref": "#/components/schemas/SeedPair"}),
    "Me": obj(player_id=INT, balance=INT),
    "SetClientSeed": {"type": "object", "required": ["client_seed", "commitment"], "additionalProperties": False,
                      "properties": {"client_seed": CHOSEN_CLIENT_SEED,
                                     "commitment": {**COMMITMENT, "description": "the commitment the player was shown"}}},
    # The target must leave a chance of 1 to 9800 in 10000: under 1..9800, over 199..9998.
    "NewBet": {"oneOf": [
        {"type": "object", "required": ["amount", "condition", "target"], "additionalProperties": False,
         "properties": {"amount": AMOUNT, "condition": {"const": "under"}, "target": {"type": "integer", "minimum": 1, "maximum": 9800}}},
        {"type": "object", "required": ["amount", "condition", "target"], "additionalProperties": False,
         "properties": {"amount": AMOUNT, "condition": {"const": "over"}, "target": {"type": "integer", "minimum": 199, "maximum": 9998}}},
    ]},
    "Bet": obj(bet_id=INT, pair_id=INT, nonce=INT, roll=INT, win={"type": "boolean"}, payout=INT, balance=INT,
               amount=INT, condition={"enum": ["under", "over"]}, target=INT),
    "BetPage": obj(bets={"type": "array", "items": {"$ref": "#/components/schemas/Bet"}}, next_before={"type": ["integer", "null"]}),
    "Revealed": obj(pair_id=INT, commitment=STR, server_seed=STR, client_seed=STR, bets=INT),
    "RevealedPage": obj(pairs={"type": "array", "items": {"$ref": "#/components/schemas/Revealed"}}, next_before={"type": ["integer", "null"]}),
    "RecordView": obj(id=INT, scheme=STR, record={"type": "object", "description": "a record as in docs/spec.md section 10"}),
    "RecordPage": obj(records={"type": "array", "items": {"$ref": "#/components/schemas/RecordView"}}, next_before={"type": ["integer", "null"]}),
    "Rotation": obj(revealed={"$ref": "#/components/schemas/Revealed"},
                    records={"type": "array", "items": {"$ref": "#/components/schemas/RecordView"}},
                    seed_pair={"$ref": "#/components/schemas/SeedPair"}),
    "NewHand": {"type": "object", "required": ["players"], "additionalProperties": False,
                "properties": {"players": {"type": "integer", "minimum": 2, "maximum": 10}}},
    "SelfpokerMessage": obj(type={"enum": ["state", "hand_end"]}, hand_id=STR, stage=STR, commit=STR, players=INT,
                            hole={"type": "array", "items": INT}, board={"type": "array", "items": INT},
                            seed={"type": "integer", "description": "hand_end only"},
                            holes={"type": "array", "description": "hand_end only"}, record_id=INT),
    "OpenMatch": {"type": "object", "required": ["game"], "additionalProperties": False,
                  "properties": {"game": {"enum": ["backgammon", "checkers", "xiangqi", "tarneeb", "trix", "bridge", "baloot", "mahjong"]},
                                 "match_id": {"type": "string", "pattern": "^[A-Za-z0-9_.-]{1,64}$"},
                                 "players": {"type": "array", "items": STR}, "tiles": {"enum": [144, 136]}}},
    "Match": obj(match_id=STR, game=STR, commitment=STR, status={"enum": ["open", "started", "finished"]},
                 players={"type": "array", "items": STR}, client_seeds={"type": "array", "items": {"type": ["string", "null"]}},
                 seat_order={"type": ["array", "null"], "items": INT}, tiles={"type": ["integer", "null"]}, draws=INT,
                 server_seed={"type": "string", "description": "once finished"}),
    "SubmitSeed": {"type": "object", "required": ["index", "client_seed", "commitment"], "additionalProperties": False,
                   "properties": {"index": INT, "client_seed": STR, "commitment": STR}},
    "DrawStep": {"type": "object", "required": ["step"], "additionalProperties": False,
                 "properties": {"step": {"enum": ["deal", "opening", "roll", "first", "second", "hand", "tile"]},
                                "buyer": {"type": "integer", "minimum": 0, "maximum": 3}}},
    "Draw": obj(seq=INT, draw=ANY),
    "UseChessSeed": {"type": "object", "required": ["seed_id", "client_seed", "commitment"], "additionalProperties": False,
                     "properties": {"seed_id": STR, "client_seed": STR, "commitment": STR, "opponent": {"type": "integer", "description": "seeks only: a challenge"}}},
    "ChessGame": obj(game_id=STR, white={"enum": ["A", "B"]}, you={"enum": ["A", "B"]}, colour={"enum": ["white", "black"]}, bot={"type": "boolean"}, status=STR),
    "NewTable": {"type": "object", "additionalProperties": False, "properties": {"table_id": {"type": "string", "pattern": "^[A-Za-z0-9_.-]{1,64}$"}}},
    "PokerTable": obj(table_id=STR, session=STR, commitment=STR, seats=ANY, hands=INT),
    "Sit": {"type": "object", "required": ["seat", "client_seed", "commitment"], "additionalProperties": False,
            "properties": {"seat": {"type": "integer", "minimum": 0, "maximum": 9}, "client_seed": STR, "commitment": STR}},
    "NewOperatorPlayer": {"type": "object", "required": ["external_id"], "additionalProperties": False,
                          "properties": {"external_id": {"type": "string", "pattern": "^[A-Za-z0-9._:@-]{1,128}$",
                                                         "description": "the operator's own id for this user"}}},
    "OperatorPlayer": {"type": "object", "required": ["player_id", "external_id"],
                       "properties": {"player_id": INT, "external_id": STR, "balance": INT, "token": STR,
                                      "login_url": {"type": "string", "description": "/#login=<token>: the page signs in from the fragment"}}},
    "NewGrant": {"type": "object", "required": ["amount"], "additionalProperties": False,
                 "properties": {"amount": {"type": "integer", "minimum": 1, "maximum": 9007199254740991}}},
    "ChipGrant": obj(grant_id=INT, player_id=INT, amount=INT, balance=INT),
    "AnyRecord": {"type": "object", "description": "one record (docs/spec.md section 10) with its secret revealed"},
}

doc = {
    "openapi": "3.1.0",
    "info": {"title": "fairseed", "version": "1",
             "description": "Provably-fair randomness service. Integers (amount, nonce, payout, balance) are exact JSON "
                            "integers; payout and balance may exceed 2^53. See docs/api.md."},
    "paths": paths,
    "components": {
        "securitySchemes": {
            "player": {"type": "http", "scheme": "bearer", "description": "player token from POST /v1/players"},
            "operator": {"type": "http", "scheme": "bearer", "description": "operator API key"},
        },
        "schemas": schemas,
    },
}
OUT.write_text(json.dumps(doc, indent=1) + "\n")
