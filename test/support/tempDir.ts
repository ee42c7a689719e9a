import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A fresh temp folder per call; `cleanup` removes every folder made so far. */
export function tempDirs(prefix = 'bureau-test-') {
  const made: string[] = []
  return {
    async make(): Promise<string> {
      const dir = await mkdtemp(join(tmpdir(), prefix))
      made.push(dir)
      return dir
    },
    async cleanup(): Promise<void> {
      await Promise.all(
        made
          .splice(0)
          .map((dir) => rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 })),
      )
    },
  }
}
