import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { SecretDecryptError } from '../../../src/main/settings'

// A stand-in for Electron's safeStorage: reversible, so the adapter's behaviour can be checked.
const fake = vi.hoisted(() => ({
  available: true,
  backend: 'gnome_libsecret' as string,
  safeStorage: {
    isEncryptionAvailable: () => fake.available,
    getSelectedStorageBackend: () => fake.backend,
    encryptString: (text: string) => Buffer.from(`enc:${text}`, 'utf8'),
    decryptString: (data: Buffer) => {
      const text = data.toString('utf8')
      if (!text.startsWith('enc:')) throw new Error('Error while decrypting the ciphertext provided')
      return text.slice(4)
    },
  },
}))
vi.mock('electron', () => ({ safeStorage: fake.safeStorage }))

const { createSafeStorageCipher, safeStorageNotice } = await import(
  '../../../src/main/electron/safeStorageCipher'
)

const platform = Object.getOwnPropertyDescriptor(process, 'platform') as PropertyDescriptor
beforeEach(() => {
  fake.available = true
  fake.backend = 'gnome_libsecret'
  Object.defineProperty(process, 'platform', { value: 'linux' })
})
afterEach(() => Object.defineProperty(process, 'platform', platform))

describe('safeStorage cipher (desktop)', () => {
  it('round-trips through safeStorage and reports an OS keychain', async () => {
    const cipher = createSafeStorageCipher()
    expect(cipher.storage).toEqual({ kind: 'os-keychain', secure: true })
    expect(safeStorageNotice(cipher)).toBeUndefined()
    const sealed = await cipher.encrypt('sk-desktop-secret')
    expect(sealed).not.toContain('sk-desktop-secret')
    expect(await cipher.decrypt(sealed)).toBe('sk-desktop-secret')
  })

  it('warns through a notice when Linux falls back to basic_text', () => {
    fake.backend = 'basic_text'
    const cipher = createSafeStorageCipher()
    expect(cipher.storage).toMatchObject({ kind: 'basic-text', secure: false })
    expect(safeStorageNotice(cipher)).toMatchObject({ level: 'warning', id: 'settings.secret-storage' })
    expect(safeStorageNotice(cipher)?.message).toMatch(/keyring/)
  })

  it('a ciphertext the keychain refuses is a SecretDecryptError, not a crash', async () => {
    const cipher = createSafeStorageCipher()
    const error = await cipher.decrypt(Buffer.from('garbage').toString('base64')).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SecretDecryptError)
    expect((error as SecretDecryptError).reason).toBe('tampered')
    expect((error as SecretDecryptError).code).toBe('UNAVAILABLE')
    expect((error as SecretDecryptError).cause).toBeInstanceOf(Error)
  })

  it('without a keychain it refuses to store and reports secrets as unreadable', async () => {
    fake.available = false
    const cipher = createSafeStorageCipher()
    expect(cipher.storage.secure).toBe(false)
    await expect(cipher.encrypt('x')).rejects.toThrow(/keychain is not available/)
    const error = await cipher.decrypt('AAAA').catch((e: unknown) => e)
    expect((error as SecretDecryptError).reason).toBe('unavailable')
  })
})
