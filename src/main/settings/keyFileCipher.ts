import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, open, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { AppError } from '../../shared/errors'
import { type SecretCipher, SecretDecryptError } from './secretCipher'

export const KEY_FILE_NAME = 'secrets.key'
const KEY_BYTES = 32
const IV_BYTES = 12
const TAG_BYTES = 16
const FORMAT = 'v1.'

function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code
}

function decodeKey(text: string): Buffer | undefined {
  const key = Buffer.from(text.trim(), 'base64')
  return key.length === KEY_BYTES ? key : undefined
}

/**
 * AES-256-GCM under a random key kept in `<dataDir>/secrets.key`, created with mode 0600 (never
 * chmod-ed afterwards, so there is no moment when others can read it). The key file is read on every
 * use: another process (the CLI) may have created it, and a deleted key file must not live on in memory.
 */
export function createKeyFileCipher(dataDir: string): SecretCipher {
  const keyPath = join(dataDir, KEY_FILE_NAME)

  async function readKey(): Promise<Buffer | undefined> {
    let text: string
    try {
      text = await readFile(keyPath, 'utf8')
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') return undefined
      throw error
    }
    const key = decodeKey(text)
    if (!key)
      throw new AppError(
        'UNAVAILABLE',
        `The key file ${KEY_FILE_NAME} in the data folder is damaged. Move it away to start a new one; stored secrets must then be entered again.`,
      )
    return key
  }

  async function createKey(): Promise<Buffer> {
    await mkdir(dataDir, { recursive: true })
    const key = randomBytes(KEY_BYTES)
    try {
      const handle = await open(keyPath, 'wx', 0o600)
      try {
        await handle.writeFile(`${key.toString('base64')}\n`)
        await handle.sync()
      } finally {
        await handle.close()
      }
      return key
    } catch (error) {
      // Another process created it first: use theirs.
      if (errnoOf(error) === 'EEXIST') return (await readKey()) as Buffer
      throw error
    }
  }

  return {
    id: 'aes-256-gcm-keyfile',
    storage: { kind: 'key-file', secure: true },
    canDecrypt: () => existsSync(keyPath),
    async encrypt(plaintext) {
      const key = (await readKey()) ?? (await createKey())
      const iv = randomBytes(IV_BYTES)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
      return FORMAT + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')
    },
    async decrypt(ciphertext) {
      let key: Buffer | undefined
      try {
        key = await readKey()
      } catch {
        throw new SecretDecryptError('tampered')
      }
      if (!key) throw new SecretDecryptError('key-missing')
      if (!ciphertext.startsWith(FORMAT)) throw new SecretDecryptError('tampered')
      const packed = Buffer.from(ciphertext.slice(FORMAT.length), 'base64')
      if (packed.length < IV_BYTES + TAG_BYTES) throw new SecretDecryptError('tampered')
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, packed.subarray(0, IV_BYTES))
        decipher.setAuthTag(packed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES))
        const body = packed.subarray(IV_BYTES + TAG_BYTES)
        return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8')
      } catch {
        throw new SecretDecryptError('tampered')
      }
    },
  }
}
