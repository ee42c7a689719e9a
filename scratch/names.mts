import { loadBuiltinToolsets } from '../src/main/toolsHost'
import { methodInfo } from '../src/main/tools/methodInfo'
const ts = await loadBuiltinToolsets({ browser: { dataDir: '/tmp/x', settings: () => ({}) as never } as never })
for (const t of ts) if (['convert','files','web'].includes(t.name)) for (const [k,m] of Object.entries(t.methods)) console.log(t.name, k, methodInfo(m).params.map(p=>p.name+(p.required?'*':'')).join(' '))
