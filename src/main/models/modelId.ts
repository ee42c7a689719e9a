import { AppError } from '../../shared/errors'
import { ModelIdInput } from '../../shared/ipc/routes/models'

/**
 * The one rule for model ids, shared by the IPC routes, the CLI, the catalogue and the store: an id
 * names `<id>.gguf` inside the models folder, so it can hold no path separator and cannot start with a dot.
 */
export const ModelId = ModelIdInput

export function checkModelId(id: string): string {
  if (ModelId.safeParse(id).success) return id
  throw new AppError(
    'VALIDATION_FAILED',
    `"${id.slice(0, 80)}" is not a model id: use 1 to 80 lowercase letters, digits, ".", "_" or "-", starting with a letter or digit (e.g. "qwen3-4b-q4km").`,
  )
}
