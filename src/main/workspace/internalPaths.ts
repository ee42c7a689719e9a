/** The folder inside every workspace that holds Bureau's own data (history, trash, backup records). */
export const INTERNAL_DIR = '.bureau'

/** Prefix of the temp files atomic writes create; hidden from listings and the watcher. */
export const TEMP_PREFIX = '.bureau-tmp-'

export function isInternalName(name: string): boolean {
  return foldName(name) === INTERNAL_DIR
}

export function isTempName(name: string): boolean {
  return name.startsWith(TEMP_PREFIX)
}

/** Case- and compatibility-folded form: how a case-insensitive or best-fit file system may see a name. */
export function foldName(name: string): string {
  return name.normalize('NFKC').toLowerCase()
}
