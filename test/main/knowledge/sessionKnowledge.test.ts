import { describe, expect, it } from 'vitest'
import { type KnowledgeService, sessionKnowledge } from '../../../src/main/knowledge'
import type { Workspace } from '../../../src/main/workspace'

const folder = (root: string) => ({ root }) as Workspace

function fakeService(name: string, closed: string[]): KnowledgeService {
  return { close: async () => void closed.push(name) } as unknown as KnowledgeService
}

describe('sessionKnowledge', () => {
  it("serves the app's folder from the main index and any other folder from one on-demand index", async () => {
    const closed: string[] = []
    const main = fakeService('main', closed)
    const seen: string[] = []
    let made = 0
    const sessions = sessionKnowledge({
      main,
      mainRoot: () => '/home/ann/Bureau/',
      other: (workspace) => {
        made++
        const service = fakeService('other', closed)
        return new Proxy(service, {
          get: (target, key) => (key === 'root' ? workspace().root : Reflect.get(target, key)),
        })
      },
    })
    expect(sessions.forWorkspace(folder('/home/ann/Bureau'))).toBe(main)
    const first = sessions.forWorkspace(folder('/tmp/task-a/workspace'))
    expect(first).not.toBe(main)
    seen.push((first as unknown as { root: string }).root)
    const second = sessions.forWorkspace(folder('/tmp/task-b/workspace'))
    expect(second).toBe(first)
    // The one other index follows the folder of the latest session.
    seen.push((second as unknown as { root: string }).root)
    expect(seen).toEqual(['/tmp/task-a/workspace', '/tmp/task-b/workspace'])
    expect(made).toBe(1)
    await sessions.close()
    expect(closed).toEqual(['other'])
  })
})
