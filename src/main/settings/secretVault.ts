import { z } from 'zod'
import type { AppNotice } from '../../shared/ipc'
import { type JsonObject, secretHint } from '../../shared/settings'
import { fileProblem, isFsError } from './fileProblem'
import { CorruptJsonFileError, type JsonFileBackend } from './jsonFileBackend'
import { moveAside } from './moveAside'
import { type SecretCipher, SecretDecryptError } from './secretCipher'

export const SECRETS_FILE_NAME = 'secrets'

const SecretEntry = z.looseObject({
  cipher: z.string(),
  ciphertext: z.string(),
  /** Computed when the secret is set, so masking never needs to decrypt. */
  hint: z.string().optional(),
  updatedAt: z.string().optional(),
})
type SecretEntry = z.infer<typeof SecretEntry>

const SecretsFile = z.looseObject({
  format: z.literal(1).default(1),
  entries: z.record(z.string(), SecretEntry).default({}),
})
type SecretsFile = z.infer<typeof SecretsFile>

export type RevealResult =
  | { status: 'missing' }
  | { status: 'ok'; value: string }
  | { status: 'unreadable'; error: SecretDecryptError }

export interface SecretVault {
  /** Names and hints of the stored secrets, from the file: no decryption. */
  /** `readable: false` when no cipher at hand can decrypt the entry now (key file gone, keychain off). */
  list(): Array<{ name: string; hint?: string; readable: boolean }>
  has(name: string): boolean
  set(name: string, value: string): Promise<void>
  clear(name: string): Promise<boolean>
  reveal(name: string): Promise<RevealResult>
  /** Re-reads the file (another process may have changed it). */
  reload(): void
}

/** The plaintext that is encrypted binds the value to its name, so ciphertexts cannot be swapped. */
function seal(name: string, value: string): string {
  return JSON.stringify({ n: name, v: value })
}

function unseal(name: string, plaintext: string): string {
  let parsed: unknown
  try {
    parsed = JSON.parse(plaintext)
  } catch {
    throw new SecretDecryptError('tampered')
  }
  const { n, v } = (parsed ?? {}) as { n?: unknown; v?: unknown }
  if (n !== name || typeof v !== 'string') throw new SecretDecryptError('tampered')
  return v
}

export interface SecretVaultOptions {
  backend: JsonFileBackend
  /** Encrypts new secrets; also decrypts what it wrote. */
  cipher: SecretCipher
  /** Ciphers that may have written older entries (e.g. the key file, read by the desktop app). */
  decryptOnly?: readonly SecretCipher[]
  notify(notice: AppNotice): void
  now(): Date
}

export function createSecretVault(options: SecretVaultOptions): SecretVault {
  const { backend, cipher } = options
  const ciphers = new Map([cipher, ...(options.decryptOnly ?? [])].map((c) => [c.id, c]))
  let file: SecretsFile = SecretsFile.parse({})

  function setAside(reason: string): void {
    const kept = moveAside(backend.path, options.now())
    options.notify({
      level: 'error',
      id: 'settings.secrets-corrupt',
      message: `Stored secrets could not be read (${reason}). Re-enter your API keys and passwords in Settings.${kept ? ` The damaged file was kept as ${kept}.` : ''}`,
    })
  }

  function readFile(): SecretsFile {
    let raw: JsonObject
    try {
      raw = backend.read()
    } catch (error) {
      if (isFsError(error))
        throw fileProblem(
          backend.path,
          error,
          'Move it out of the data folder (or fix its permissions) and start Bureau again; stored API keys and passwords must then be entered again.',
        )
      if (!(error instanceof CorruptJsonFileError)) throw error
      setAside('the file is not valid JSON')
      return SecretsFile.parse({})
    }
    const parsed = SecretsFile.safeParse(raw)
    if (parsed.success) return parsed.data
    setAside('the file has an unexpected shape')
    return SecretsFile.parse({})
  }

  function save(next: SecretsFile): void {
    backend.write(next as JsonObject)
    file = next
  }

  file = readFile()

  return {
    list: () =>
      Object.entries(file.entries).map(([name, entry]) => {
        const decoder = ciphers.get(entry.cipher)
        return { name, hint: entry.hint, readable: Boolean(decoder) && (decoder?.canDecrypt?.() ?? true) }
      }),
    has: (name) => Object.hasOwn(file.entries, name),
    reload() {
      file = readFile()
    },
    async set(name, value) {
      const ciphertext = await cipher.encrypt(seal(name, value))
      const current = readFile()
      const entry: SecretEntry = {
        cipher: cipher.id,
        ciphertext,
        hint: secretHint(value, name),
        updatedAt: options.now().toISOString(),
      }
      save({ ...current, entries: { ...current.entries, [name]: entry } })
    },
    async clear(name) {
      const current = readFile()
      if (!Object.hasOwn(current.entries, name)) {
        file = current
        return false
      }
      const { [name]: _removed, ...entries } = current.entries
      save({ ...current, entries })
      return true
    },
    async reveal(name) {
      const entry = Object.hasOwn(file.entries, name) ? file.entries[name] : undefined
      if (!entry) return { status: 'missing' }
      const decoder = ciphers.get(entry.cipher)
      try {
        if (!decoder) throw new SecretDecryptError('other-cipher')
        return { status: 'ok', value: unseal(name, await decoder.decrypt(entry.ciphertext)) }
      } catch (error) {
        if (error instanceof SecretDecryptError) return { status: 'unreadable', error }
        return { status: 'unreadable', error: new SecretDecryptError('unavailable', { cause: error }) }
      }
    },
  }
}
