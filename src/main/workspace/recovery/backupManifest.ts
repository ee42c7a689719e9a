import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { z } from 'zod'
import { writeFileAtomic } from '../anchored/atomicWrite'
import { nodeWriteFs } from '../anchored/fsSeam'

const Manifest = z.object({
  version: z.literal(1),
  /** backup agent path -> agent path of the file it is a backup of */
  origins: z.record(z.string(), z.string()),
})
type Manifest = z.infer<typeof Manifest>

/**
 * Records which file each backup belongs to: `report.xlsx` and `report.docx` share the `report.NNN.bak`
 * series, and only backups Bureau made are ever pruned (a user's own `.bak` files are left alone).
 */
export class BackupManifest {
  constructor(private readonly file: string) {}

  async read(): Promise<Manifest> {
    try {
      return Manifest.parse(JSON.parse(await readFile(this.file, 'utf8')))
    } catch {
      return { version: 1, origins: {} }
    }
  }

  async update(change: (origins: Record<string, string>) => void): Promise<void> {
    const manifest = await this.read()
    change(manifest.origins)
    await writeFileAtomic(nodeWriteFs, this.file, Buffer.from(`${JSON.stringify(manifest, null, 1)}\n`))
  }

  static at(internalDir: string): BackupManifest {
    return new BackupManifest(path.join(internalDir, 'backups.json'))
  }
}
