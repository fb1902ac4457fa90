-- KEYS: any key. ARGV: any value. Returns both.
return { KEYS[1], ARGV[1] }
