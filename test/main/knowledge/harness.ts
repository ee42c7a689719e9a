import { copyFile, mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { createConverter } from '../../../src/main/convert'
import { createKnowledgeService, type Embedder, type KnowledgeService } from '../../../src/main/knowledge'
import { createWorkspace } from '../../../src/main/workspace'
import { defaultSettings, type KnowledgeSettings } from '../../../src/shared/settings'
import { fixturePath } from '../../support/fixtures'
import { tempDirs } from '../../support/tempDir'

export const temps = tempDirs('bureau-knowledge-')

export interface Harness {
  root: string
  dataDir: string
  workspace: ReturnType<typeof createWorkspace>
  knowledge: KnowledgeService
  settings: KnowledgeSettings
  close(): Promise<void>
}

/** A real workspace with the given fixtures copied in (`core/<name>` -> `/<dest>`), a real converter and index. */
export async function knowledgeHarness(
  files: Record<string, string>,
  options: {
    embedder?: () => Promise<Embedder | undefined>
    settings?: Partial<KnowledgeSettings>
    /** As the CLI's and eval's on-demand services: every search syncs first. */
    syncBeforeSearch?: boolean
  } = {},
): Promise<Harness> {
  const root = await temps.make()
  const dataDir = await temps.make()
  for (const [dest, fixture] of Object.entries(files)) {
    await mkdir(join(root, dest, '..'), { recursive: true })
    await copyFile(fixturePath('core', fixture), join(root, dest))
  }
  const workspace = createWorkspace({ root, history: true })
  const converter = createConverter()
  const settings = { ...defaultSettings().knowledge, ...options.settings }
  const knowledge = createKnowledgeService({
    dataDir,
    workspace: () => workspace,
    converter,
    settings: () => settings,
    embedder: options.embedder ?? (async () => undefined),
    disabled: true,
    syncBeforeSearch: options.syncBeforeSearch ?? false,
  })
  return {
    root,
    dataDir,
    workspace,
    knowledge,
    settings,
    async close() {
      await knowledge.close()
      await workspace.close()
      await converter.dispose()
    },
  }
}
