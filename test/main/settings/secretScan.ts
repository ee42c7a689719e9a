import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'

/** Every encoding of a secret a careless writer might leave on disk or on the wire. */
export function secretForms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8')
  return [
    secret,
    bytes.toString('base64'),
    bytes.toString('base64').replace(/=+$/, ''),
    bytes.toString('base64url'),
    bytes.toString('hex'),
    JSON.stringify(secret).slice(1, -1),
  ]
}

export function containsSecret(text: string, secret: string): boolean {
  return secretForms(secret).some((form) => text.includes(form))
}

/** Files under `dir` (recursively) whose bytes contain the secret in any of its forms. */
export async function filesContaining(dir: string, secret: string): Promise<string[]> {
  const hits: string[] = []
  const forms = secretForms(secret).map((form) => Buffer.from(form, 'utf8'))
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name)
      if (entry.isDirectory()) await walk(path)
      else if (entry.isFile()) {
        const bytes = await readFile(path)
        if (forms.some((form) => bytes.includes(form))) hits.push(path)
      }
    }
  }
  await walk(dir)
  return hits
}

/** Lists every file under `dir`, so a test can prove the scan looked at something. */
export async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name))
}
