import { loadBuiltinToolsets } from '../src/main/toolsHost'
import { getCatalog } from '../src/main/tools'
const ts = await loadBuiltinToolsets()
const t = ts.find(t=>t.name===process.argv[2])!
for (const n of process.argv.slice(3)) console.log(JSON.stringify(getCatalog([t],'api').tools.find(x=>x.function.name===n)))
