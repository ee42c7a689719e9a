import { refuse } from './errors'
import { isInternalName } from './internalPaths'

export const MAX_NAME_BYTES = 255

// Windows device names: opening `nul.txt` or `COM1` there talks to a device, not a file. Only there:
// on Linux and macOS `nul.txt` and `con.md` are ordinary files, which reads, listings and the
// knowledge index must keep.
const RESERVED_NAME = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$|clock\$)(?:\s*\..*)?$/i
const DEVICE_NAMES_RESERVED = process.platform === 'win32'

/** Whether `name` is a Windows device name (`CON`, `nul.txt`, `COM¹`), whatever the platform. */
export function isWindowsDeviceName(name: string): boolean {
  return RESERVED_NAME.test(name) || RESERVED_NAME.test(name.normalize('NFKC'))
}

// Slash-like characters that NFKC leaves alone but that render (or best-fit convert) like a separator.
const SLASH_LOOK_ALIKES = /[\u2044\u2215\u29F8\u29F9\u2216\u244A\u2571\u2572\uFE68\uFF0F\uFF3C]/u

// Characters whose appearance after NFKC folding means a look-alike was used for a path-significant one.
const SIGNIFICANT = ['/', '\\', ':', '%'] as const

/** Checks one path segment (already split on `/`, not `.` or `..`). Throws a PathRefusedError. */
export function checkName(name: string): void {
  if (Buffer.byteLength(name, 'utf8') > MAX_NAME_BYTES) {
    refuse(
      'name-too-long',
      `a file or folder name is longer than ${MAX_NAME_BYTES} bytes; use a shorter name.`,
    )
  }
  if (name.includes(':')) {
    refuse('colon', 'names cannot contain ":" (drive letters and alternate data streams); pick another name.')
  }
  checkLookAlikes(name)
  if (/[. ]$/.test(name)) {
    refuse('trailing-dot-or-space', 'names cannot end with a dot or a space; remove it.')
  }
  if (DEVICE_NAMES_RESERVED && isWindowsDeviceName(name)) {
    refuse(
      'reserved-name',
      'names like CON, PRN, AUX, NUL, COM1 and LPT1 are reserved device names; pick another.',
    )
  }
}

function checkLookAlikes(name: string): void {
  const folded = name.normalize('NFKC')
  const introduced = SIGNIFICANT.some((char) => count(folded, char) > count(name, char))
  const becomesDots = folded !== name && /^\.+$/.test(folded.trim())
  if (SLASH_LOOK_ALIKES.test(name) || introduced || becomesDots) {
    refuse(
      'look-alike-character',
      'the name uses a Unicode look-alike of "/", "\\", ".", ":" or "%"; use plain characters.',
    )
  }
  if (folded !== name && isInternalName(folded)) {
    refuse('internal-folder', 'the .bureau folder is internal to Bureau; use another folder.')
  }
  if (folded !== name && /[.\s]$/.test(folded)) {
    refuse('trailing-dot-or-space', 'names cannot end with a dot or a space (or a look-alike of one).')
  }
}

function count(text: string, char: string): number {
  return text.split(char).length - 1
}
