-- wrk script (wrk 4.x, LuaJIT): POST /v1/dice/bets with a fresh Idempotency-Key per request,
-- spreading the bets over many players (tokens read from $TOKENS_FILE, one
-- per line). Each wrk thread takes every Nth token so no two threads share
-- a player's bucket; the server is started with --rate-limit 0 (see run.sh),
-- so the per-token limit is not what is measured.

local tokens = {}
local counter = 0
local run_id = os.getenv("RUN_ID") or tostring(os.time())

local threads = {}
local next_id = 0

function setup(thread)
  thread:set("thread_id", next_id)
  next_id = next_id + 1
  table.insert(threads, thread)
end

function init(args)
  local path = os.getenv("TOKENS_FILE")
  local all = {}
  for line in io.lines(path) do
    if #line > 0 then table.insert(all, line) end
  end
  -- thread_id is a global set by setup() through thread:set before init.
  thread_id = thread_id or 0
  local n_threads = tonumber(os.getenv("WRK_THREADS") or "1")
  for i, t in ipairs(all) do
    if (i - 1) % n_threads == thread_id then table.insert(tokens, t) end
  end
  if #tokens == 0 then tokens = all end
end

local bodies = {
  '{"amount": 10, "condition": "under", "target": 4950}',
  '{"amount": 3, "condition": "over", "target": 5049}',
  '{"amount": 1, "condition": "under", "target": 100}',
  '{"amount": 25, "condition": "over", "target": 2000}',
}

function request()
  counter = counter + 1
  local token = tokens[(counter % #tokens) + 1]
  local headers = {
    ["Authorization"] = "Bearer " .. token,
    ["Content-Type"] = "application/json",
    ["Idempotency-Key"] = run_id .. "-" .. thread_id .. "-" .. counter,
  }
  return wrk.format("POST", "/v1/dice/bets", headers, bodies[(counter % #bodies) + 1])
end

function done(summary, latency, requests)
  io.write(string.format("p50_ms=%.2f p90_ms=%.2f p99_ms=%.2f p999_ms=%.2f max_ms=%.2f requests=%d errors_connect=%d errors_read=%d errors_write=%d errors_status=%d errors_timeout=%d duration_s=%.2f\n",
    latency:percentile(50) / 1000, latency:percentile(90) / 1000,
    latency:percentile(99) / 1000, latency:percentile(99.9) / 1000, latency.max / 1000,
    summary.requests, summary.errors.connect, summary.errors.read,
    summary.errors.write, summary.errors.status, summary.errors.timeout,
    summary.duration / 1e6))
end
