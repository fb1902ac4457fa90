-- Shared by the tags library's functions (store.ts), after memory-data's Lua (keyspace.lua: key names;
-- links.lua: links and versions).

local function tag_name_taken(existing_id)
  return invalid('name', 'unique', 'A tag with this name already exists', { existing_id = existing_id })
end
