import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFile as writeAtomically } from 'atomically'
import { z } from 'zod'

/** Bump when the chunking, the tables or this file change meaning: an older index is rebuilt, not trusted. */
export const INDEX_FORMAT_VERSION = 1

export const FileEntry = z.object({
  /** SHA-256 of the bytes: an unchanged file is never converted again. */
  hash: z.string(),
  size: z.number().int().min(0),
  mtimeMs: z.number(),
  format: z.string().optional(),
  chunks: z.number().int().min(0),
  /** Vectors of its chunks are stored (for the manifest's embedding model). */
  embedded: z.boolean().default(false),
  /** Why the file is not (fully) indexed: conversion failed, too large, embeddings failed. */
  error: z.string().optional(),
})
export type FileEntry = z.infer<typeof FileEntry>

export const Manifest = z.object({
  version: z.literal(INDEX_FORMAT_VERSION),
  /** The workspace folder this index was built from. */
  root: z.string(),
  embedding: z.object({ id: z.string(), dimensions: z.number().int().min(1) }).optional(),
  files: z.record(z.string(), FileEntry),
  lastBuild: z.string().optional(),
  /** Files written since the full-text index was last brought up to date (`optimize`). */
  unoptimized: z.number().int().min(0).optional(),
})
export type Manifest = z.infer<typeof Manifest>

export const MANIFEST_FILE = 'manifest.json'

export type ManifestRead = { ok: true; manifest: Manifest } | { ok: false; reason: string }

/** The stored manifest, or why it cannot be trusted (missing is not an error: a new index). */
export async function readManifest(dir: string, root: string): Promise<ManifestRead | undefined> {
  let text: string
  try {
    text = await readFile(join(dir, MANIFEST_FILE), 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    return { ok: false, reason: `the manifest cannot be read (${(error as NodeJS.ErrnoException).code})` }
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return { ok: false, reason: 'the manifest is not valid JSON' }
  }
  const version = (json as { version?: unknown } | null)?.version
  if (version !== INDEX_FORMAT_VERSION)
    return {
      ok: false,
      reason: `the index was written in format ${String(version)}, this Bureau uses ${INDEX_FORMAT_VERSION}`,
    }
  const parsed = Manifest.safeParse(json)
  if (!parsed.success) return { ok: false, reason: 'the manifest does not match its schema' }
  if (parsed.data.root !== root) return { ok: false, reason: 'the index belongs to another folder' }
  return { ok: true, manifest: parsed.data }
}

export async function writeManifest(dir: string, manifest: Manifest): Promise<void> {
  await writeAtomically(join(dir, MANIFEST_FILE), JSON.stringify(manifest))
}

export function emptyManifest(root: string): Manifest {
  return { version: INDEX_FORMAT_VERSION, root, files: {} }
}
