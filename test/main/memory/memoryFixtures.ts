import { type Memory, MemoryFile } from '../../../src/shared/memory'
import { seededRandom } from '../../support/seededRandom'

const NAMES = [
  'Anna',
  'Jonas',
  'Lea',
  'Paul',
  'Mia',
  'Felix',
  'Emma',
  'Noah',
  'Sofia',
  'Elias',
  'Clara',
  'Ben',
]
const CLIENTS = ['Müller GmbH', 'Schmidt AG', 'Nordlicht KG', 'Alpen Bau', 'Rhein Logistik', 'Kessler & Co']
const TOPICS = [
  (r: () => number, i: number) =>
    `${pick(r, NAMES)} ${i} from ${pick(r, CLIENTS)} prefers calls on ${pick(r, ['Monday', 'Tuesday', 'Friday'])} mornings`,
  (r: () => number, i: number) =>
    `The ${pick(r, CLIENTS)} project ${i} has a budget of ${Math.floor(r() * 90 + 10)}k EUR`,
  (r: () => number, i: number) =>
    `Mails to ${pick(r, CLIENTS)} (${i}) use the formal "Sie" and end with "Mit freundlichen Grüßen"`,
  (r: () => number, i: number) =>
    `${pick(r, NAMES)} ${i} is on holiday in ${pick(r, ['August', 'July', 'December'])}`,
  (r: () => number, i: number) =>
    `Meeting room ${i} on floor ${Math.floor(r() * 5) + 1} seats ${Math.floor(r() * 20) + 4} people`,
  (_r: () => number, i: number) => `Quarterly report ${i} numbers use two decimals and a thousands separator`,
  (r: () => number, i: number) =>
    `The colleague ${pick(r, NAMES)} ${i} handles the ${pick(r, ['payroll', 'contracts', 'travel', 'IT'])} questions`,
  (r: () => number, i: number) =>
    `Invoice numbers for ${pick(r, CLIENTS)} ${i} start with ${String.fromCharCode(65 + (i % 26))}-`,
]

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)] as T
}

export const INVOICE_FOLDER_MEMORY = 'Invoices are always saved in the folder /finance/invoices/<year>'

/** `count` plausible office memories (seeded), with the invoice-folder one somewhere in the middle. */
export function officeMemories(count: number, seed = 7): string[] {
  const random = seededRandom(seed)
  const texts: string[] = []
  for (let i = 0; i < count - 1; i++) texts.push(pick(random, TOPICS)(random, i))
  texts.splice(Math.floor(count / 2), 0, INVOICE_FOLDER_MEMORY)
  return texts
}

/** A memories file holding `texts` (ids m00000000, m00000001, …), each overridden by `extra[i]`. */
export function memoryFileOf(texts: string[], extra: Partial<Memory>[] = []): MemoryFile {
  const at = '2026-01-01T00:00:00.000Z'
  const memories = texts.map((text, i) => ({
    id: `m${i.toString(16).padStart(8, '0')}`,
    text,
    scope: { kind: 'everywhere' as const },
    source: { kind: 'settings' as const },
    createdAt: at,
    updatedAt: at,
    ...extra[i],
  }))
  return MemoryFile.parse({ memories })
}
