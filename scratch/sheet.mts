import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { loadBuiltinToolsets } from '../src/main/toolsHost'
import { getCatalog } from '../src/main/tools'
const ts = await loadBuiltinToolsets()
const t = ts.find(t=>t.name==='spreadsheet')!
for (const tool of getCatalog([t], 'api').tools) {
  console.log(tool.function.name, countTokens(tool.function.description), countTokens(JSON.stringify(tool.function.parameters)))
}
const one = getCatalog([t], 'api').tools.find(x=>x.function.name==='spreadsheet_set_range')!
console.log(JSON.stringify(one,null,1))
