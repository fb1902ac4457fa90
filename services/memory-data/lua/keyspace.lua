-- Key names of a tenant's records, exactly as keyspace.ts names them (keyspace-lua.test.ts checks each).
-- For functions that meet ids only as they run (a hierarchy walked, the members of a set): they cannot
-- declare those keys up front, so they build them here from the tenant's hash tag `{tenant:env}`, taken
-- from a key the call declared (`use_tenant_of(KEYS[1])`). Every key built here is thus in the cluster
-- slot of that declared key.
local T = ''

-- `<kind>:{tenant:env}:<name>`, kind and name without ':' (e.g. `mi:{acme:live}:created`).
local function use_tenant_of(key)
  T = string.match(key, '^[^:]*:(.*):[^:]*$')
end

local TK = {
  memory = function(id) return 'm:' .. T .. ':' .. id end,
  memory_tags = function(id) return 'm:' .. T .. ':' .. id .. ':tags' end,
  memory_kids = function(id) return 'm:' .. T .. ':' .. id .. ':kids' end,
  memory_entities = function(id) return 'm:' .. T .. ':' .. id .. ':ents' end,
  by_field = function(field, value) return 'mi:' .. T .. ':' .. field .. ':' .. value end,
  tag = function(id) return 't:' .. T .. ':' .. id end,
  tag_members = function(id) return 't:' .. T .. ':' .. id .. ':mems' end,
  entity = function(id) return 'e:' .. T .. ':' .. id end,
  entity_members = function(id) return 'e:' .. T .. ':' .. id .. ':mems' end,
}
