-- KEYS: any key. ARGV: which refusal ('missing' | 'taken' | 'unknown code').
if ARGV[1] == 'missing' then return not_found('Thing') end
if ARGV[1] == 'taken' then return invalid('name', 'unique', 'That name is taken', { max = 3, ids = { 'a', 'b' } }) end
return refuse('NOT_A_CODE', 'never mapped')
