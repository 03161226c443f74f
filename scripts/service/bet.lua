-- wrk script: POST /v1/dice/bets with a unique Idempotency-Key per request,
-- spreading requests over the player tokens listed in $FAIRSEED_TOKENS_FILE.
local tokens = {}
local file = assert(io.open(os.getenv("FAIRSEED_TOKENS_FILE"), "r"))
for line in file:lines() do
  if #line > 0 then tokens[#tokens + 1] = line end
end
file:close()

local thread_id = 0
function setup(thread)
  thread:set("tid", thread_id)
  thread_id = thread_id + 1
end

local counter = 0
local body = '{"amount": 1, "condition": "under", "target": 4950}'
function request()
  counter = counter + 1
  local token = tokens[(counter + tid * 7919) % #tokens + 1]
  local headers = {
    ["Content-Type"] = "application/json",
    ["Authorization"] = "Bearer " .. token,
    ["Idempotency-Key"] = string.format("wrk-%d-%d-%d", tid, counter, os.time()),
  }
  return wrk.format("POST", "/v1/dice/bets", headers, body)
end
