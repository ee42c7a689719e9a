import { loadBuiltinToolsets } from '../src/main/toolsHost'
const ts = await loadBuiltinToolsets()
const t = ts.find(t=>t.name===process.argv[2])!
console.log('SUMMARY', t.summary, '\nDESC', t.description)
for (const [k,m] of Object.entries(t.methods)) console.log(`## ${k}\n${m.description}\n`)
