import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openEvalEnvironment } from '../../../src/main/cli/eval/evalEnvironment'
import type { EvalEnvironment } from '../../../src/main/eval'
import { createLogger } from '../../../src/main/platform'

/** The environment `bureau eval` builds, on a fresh data folder (no provider: replays and scripted models). */
export async function testEvalEnvironment(): Promise<EvalEnvironment & { dataDir: string }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'bureau-eval-test-'))
  const env = await openEvalEnvironment({
    dataDir,
    scratchDir: join(dataDir, 'scratch'),
    logger: createLogger({ level: 'error' }),
    notify: () => {},
    env: {},
  })
  return {
    ...env,
    dataDir,
    async close() {
      await env.close()
      await rm(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 })
    },
  }
}
