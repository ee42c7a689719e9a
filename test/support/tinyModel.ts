import { join } from 'node:path'
import { type Requirement, thirdPartyDir } from './requirements'

/** The tiny random-weights GGUF (ollama's test model) in the third-party folder. */
export const TINY_MODEL_NEEDS: Requirement = { thirdParty: join('fixtures', 'models') }

/** Its path; it may be absent: suites that load it use describeNeeding([TINY_MODEL_NEEDS]). */
export const TINY_MODEL = join(thirdPartyDir(), 'fixtures', 'models', 'llama-2-tiny-random.gguf')
