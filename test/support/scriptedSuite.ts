import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest'
import { assertBuilt } from './builtCli'
import { type ScriptedLlm, startScriptedLlm } from './scriptedLlm'
import { tempDirs } from './tempDir'

export interface ScriptedSuite {
  /** The scripted model server: started once, reset before each test, closed at the end. */
  llm: ScriptedLlm
  /** Temp folders, removed after each test. */
  dirs: ReturnType<typeof tempDirs>
}

/**
 * Registers the hooks most model-facing suites share; `llm` is set once `beforeAll` has run.
 * With `built`, the suite runs the built CLI and fails at once when it is missing.
 */
export function scriptedSuite(tempPrefix: string, options: { built?: boolean } = {}): ScriptedSuite {
  const suite = { dirs: tempDirs(tempPrefix) } as ScriptedSuite
  beforeAll(async () => {
    if (options.built) assertBuilt()
    suite.llm = await startScriptedLlm()
  })
  afterAll(() => suite.llm?.close())
  beforeEach(() => suite.llm.reset())
  afterEach(() => suite.dirs.cleanup())
  return suite
}
