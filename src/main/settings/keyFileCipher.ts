import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { lstat, mkdir, open, readlink } from 'node:fs/promises'
import { join } from 'node:path'
import { AppError } from '../../shared/errors'
import type { AppNotice } from '../../shared/ipc'
import { fileProblem } from './fileProblem'
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

/** The key file is a symbolic link whose target is gone: the key is missing, not damaged. */
class DanglingKeyLink extends AppError {}

const START_OVER = 'stored API keys and passwords must then be entered again'

export interface KeyFileCipherOptions {
  /** Told when the key file was readable by others and its mode was set back to 0600. */
  notify?: (notice: AppNotice) => void
}

/**
 * AES-256-GCM under a random key kept in `<dataDir>/secrets.key`, created with mode 0600 (not chmod-ed
 * after creation, so there is no moment when others can read it). The key file is read on every
 * use: another process (the CLI) may have created it, and a deleted key file must not live on in memory.
 * A key file others can read (0644 after a copy or an unpack) is set back to 0600, with a warning.
 */
export function createKeyFileCipher(dataDir: string, options: KeyFileCipherOptions = {}): SecretCipher {
  const keyPath = join(dataDir, KEY_FILE_NAME)

  async function missing(): Promise<undefined> {
    const link = await lstat(keyPath).catch(() => undefined)
    if (!link?.isSymbolicLink()) return undefined
    const target = await readlink(keyPath).catch(() => '?')
    throw new DanglingKeyLink(
      'UNAVAILABLE',
      `${keyPath} is a symbolic link to ${target}, which does not exist. Restore the file it points to, or delete the link to start a new key (${START_OVER}).`,
    )
  }

  async function tighten(mode: number, fix: () => Promise<void>): Promise<void> {
    const shown = (mode & 0o777).toString(8).padStart(4, '0')
    const fixed = await fix().then(
      () => true,
      () => false,
    )
    options.notify?.({
      level: 'warning',
      id: 'settings.key-file-mode',
      message: fixed
        ? `${keyPath} could be read by other users (mode ${shown}); its mode was set to 0600. If others may have copied it, clear and re-enter your stored secrets.`
        : `${keyPath} can be read by other users (mode ${shown}) and its mode could not be changed. Run chmod 600 on it.`,
    })
  }

  async function readKey(): Promise<Buffer | undefined> {
    let text: string
    try {
      const handle = await open(keyPath, 'r')
      try {
        const info = await handle.stat()
        if (!info.isFile()) throw Object.assign(new Error('not a file'), { code: 'EISDIR' })
        if (process.platform !== 'win32' && (info.mode & 0o077) !== 0)
          await tighten(info.mode, () => handle.chmod(0o600))
        text = await handle.readFile('utf8')
      } finally {
        await handle.close()
      }
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') return missing()
      throw fileProblem(keyPath, error, `Move it out of the data folder to start a new key; ${START_OVER}.`)
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
    const key = randomBytes(KEY_BYTES)
    try {
      await mkdir(dataDir, { recursive: true })
      const handle = await open(keyPath, 'wx', 0o600)
      try {
        await handle.writeFile(`${key.toString('base64')}\n`)
        await handle.sync()
      } finally {
        await handle.close()
      }
      return key
    } catch (error) {
      // Another process created it first: use theirs (readKey says why when it cannot).
      if (errnoOf(error) === 'EEXIST') {
        const theirs = await readKey()
        if (theirs) return theirs
      }
      throw fileProblem(keyPath, error, 'Check that the data folder is writable.')
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
      } catch (error) {
        throw new SecretDecryptError(error instanceof DanglingKeyLink ? 'key-missing' : 'tampered', {
          cause: error,
        })
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
      } catch (error) {
        throw new SecretDecryptError('tampered', { cause: error })
      }
    },
  }
}
