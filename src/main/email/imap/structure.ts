import type { MessageStructureObject } from 'imapflow'

export interface AttachmentPart {
  /** IMAP body part number, e.g. "2" or "1.3". */
  part: string
  name: string
  type: string
  /** Encoded size on the server (base64 is about 4/3 of the file). */
  encodedSize: number
}

function fileNameOf(node: MessageStructureObject): string | undefined {
  return node.dispositionParameters?.filename ?? node.parameters?.name
}

function isAttachment(node: MessageStructureObject): boolean {
  if (node.childNodes || node.type.startsWith('multipart/')) return false
  if (node.disposition === 'attachment') return true
  return fileNameOf(node) !== undefined && !node.type.startsWith('text/')
}

/** Every node in document order, with a stack of our own: a server may nest parts deeply. */
function walk(root: MessageStructureObject, visit: (node: MessageStructureObject) => void): void {
  const pending = [root]
  for (let node = pending.pop(); node; node = pending.pop()) {
    visit(node)
    const children = node.childNodes ?? []
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]!)
  }
}

/** How many MIME parts (multipart containers included) the structure has. */
export function partCount(structure: MessageStructureObject | undefined): number {
  let count = 0
  if (structure) walk(structure, () => count++)
  return count
}

/** The attachments of a message from its BODYSTRUCTURE, without downloading anything. */
export function attachmentParts(structure: MessageStructureObject | undefined): AttachmentPart[] {
  if (!structure) return []
  const parts: AttachmentPart[] = []
  walk(structure, (node) => {
    if (!isAttachment(node)) return
    parts.push({
      part: node.part ?? '1',
      name: fileNameOf(node) ?? `part-${node.part ?? '1'}`,
      type: node.type,
      encodedSize: node.size ?? 0,
    })
  })
  return parts
}

/** The first inline text part of `type` (the body of a large message, read without its attachments). */
export function textPart(structure: MessageStructureObject | undefined, type: string): string | undefined {
  let found: string | undefined
  if (!structure) return undefined
  walk(structure, (node) => {
    if (found || node.type !== type || node.disposition === 'attachment') return
    found = node.part ?? '1'
  })
  return found
}

/** Roughly how many bytes a part is once decoded. */
export function decodedSize(part: AttachmentPart): number {
  return Math.floor((part.encodedSize * 3) / 4)
}
