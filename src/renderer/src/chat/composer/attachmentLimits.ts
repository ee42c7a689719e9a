import { formatBytes } from '../../components/formatBytes'

export interface AttachmentLimits {
  maxFiles: number
  maxFileBytes: number
  maxTotalBytes: number
}

// 20 is the contract's cap; the byte caps keep one request under the host's 64 MiB body limit after base64.
export const DEFAULT_LIMITS: AttachmentLimits = {
  maxFiles: 20,
  maxFileBytes: 25 * 1024 * 1024,
  maxTotalBytes: 40 * 1024 * 1024,
}

export interface SizedFile {
  name: string
  size: number
}

export interface Rejection {
  name: string
  reason: string
}

/** Which of the incoming files fit next to the current ones; every file left out gets a reason. */
export function admitFiles<T extends SizedFile>(
  current: readonly SizedFile[],
  incoming: readonly T[],
  limits: AttachmentLimits = DEFAULT_LIMITS,
): { accepted: T[]; rejected: Rejection[] } {
  const accepted: T[] = []
  const rejected: Rejection[] = []
  let count = current.length
  let total = current.reduce((sum, f) => sum + f.size, 0)
  const seen = new Set(current.map((f) => `${f.name}\u0000${f.size}`))

  for (const file of incoming) {
    const key = `${file.name}\u0000${file.size}`
    if (file.size === 0) rejected.push({ name: file.name, reason: 'the file is empty' })
    else if (seen.has(key)) rejected.push({ name: file.name, reason: 'already attached' })
    else if (file.size > limits.maxFileBytes)
      rejected.push({
        name: file.name,
        reason: `${formatBytes(file.size)} is over the ${formatBytes(limits.maxFileBytes)} limit per file`,
      })
    else if (count >= limits.maxFiles)
      rejected.push({ name: file.name, reason: `only ${limits.maxFiles} files fit in one message` })
    else if (total + file.size > limits.maxTotalBytes)
      rejected.push({
        name: file.name,
        reason: `all files together would exceed ${formatBytes(limits.maxTotalBytes)}`,
      })
    else {
      accepted.push(file)
      seen.add(key)
      count++
      total += file.size
    }
  }
  return { accepted, rejected }
}

/** A pasted image arrives as "image.png"; give it a name that says where it came from. */
export function namePastedFile(file: File, now: Date = new Date()): File {
  if (file.name && file.name !== 'image.png' && file.name !== 'blob') return file
  const ext = file.type.split('/')[1]?.replace('jpeg', 'jpg') ?? 'bin'
  const stamp = now.toISOString().slice(0, 19).replace(/[:T]/g, '-')
  return new File([file], `pasted-${stamp}.${ext}`, { type: file.type, lastModified: file.lastModified })
}
