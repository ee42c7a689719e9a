import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { loadBuiltinToolsets } from '../src/main/toolsHost'
import { toolsetHelp, methodHelp, topHelp } from '../src/main/tools/terminalHelp'
const ts = await loadBuiltinToolsets({ browser: { dataDir: '/tmp/x', settings: () => ({}) as never } as never })
const t = ts.find(t=>t.name===process.argv[2])!
const h = toolsetHelp(t); console.log(h); console.log('TOKENS', countTokens(h))
for (const m of process.argv.slice(3)) { const x = methodHelp(t, m); console.log(x, '\nTOKENS', countTokens(x)) }
for (const t of ts) console.log(t.name, countTokens(toolsetHelp(t)), Object.keys(t.methods).reduce((a,k)=>a+countTokens(methodHelp(t,k)),0))
