-- Shared by the tags library's functions (store.ts), after kit/keyspace.lua.

local function tag_name_taken(existing_id)
  return invalid('name', 'unique', 'A tag with this name already exists', { existing_id = existing_id })
end
