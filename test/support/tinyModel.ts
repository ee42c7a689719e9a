import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { tinyLlamaModel } from '../../scripts/tinyLlamaModel'
import { type Requirement, thirdPartyDir } from './requirements'

/** Ollama's tiny random-weights GGUF in the third-party folder: a model file written by another project. */
export const SHARED_TINY_MODEL_NEEDS: Requirement = { thirdParty: join('fixtures', 'models') }
export const SHARED_TINY_MODEL = join(thirdPartyDir(), 'fixtures', 'models', 'llama-2-tiny-random.gguf')

const CACHE = fileURLToPath(new URL('../../node_modules/.cache/bureau-test/', import.meta.url))
const SCRIPT = fileURLToPath(new URL('../../scripts/tinyLlamaModel.ts', import.meta.url))

/**
 * The project's own tiny random-weights llama GGUF (scripts/tinyLlamaModel.ts), written once into
 * node_modules/.cache, in a folder named by the digest of the script that writes it (its output depends on
 * nothing else): test files starting side by side write the same bytes, and a rename makes each write whole.
 */
function generatedModel(): string {
  const folder = join(CACHE, createHash('sha256').update(readFileSync(SCRIPT)).digest('hex').slice(0, 16))
  const path = join(folder, 'tiny-llama-random.gguf')
  if (existsSync(path)) return path
  mkdirSync(folder, { recursive: true })
  const partial = `${path}.${process.pid}.part`
  writeFileSync(partial, tinyLlamaModel())
  renameSync(partial, path)
  return path
}

/** The tiny llama model the local-model suites load: made by the project, so it is always there. */
export const TINY_MODEL = generatedModel()
