-- Returns GREETING, which the library's shared Lua source defines.
return GREETING
