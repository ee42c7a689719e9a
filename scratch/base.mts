import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { loadBuiltinToolsets } from '../src/main/toolsHost'
import { getCatalog } from '../src/main/tools'
const ts = await loadBuiltinToolsets({ browser: { dataDir: '/tmp/x', settings: () => ({}) as never } as never })
console.log(ts.map(t=>`${t.name}:${Object.keys(t.methods).length}`).join(' '))
let total = 0
for (const t of ts) {
  const tools = getCatalog([t], 'api').tools
  const n = countTokens(JSON.stringify(tools)); total += n
  console.log(t.name, 'apitools tokens', n)
  if (process.argv[2] === t.name) for (const tool of tools) console.log('  ', tool.function.name, countTokens(tool.function.description), countTokens(JSON.stringify(tool.function.parameters)))
}
console.log('total', total)
