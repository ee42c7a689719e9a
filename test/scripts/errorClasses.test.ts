import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * The error classes of src/ that are not AppError, each with why it is a class of its own. Errors that cross
 * a service boundary or reach a user are AppErrors (a code from the closed list; a subclass where callers
 * need more fields); the ones below are signals inside one module or service and stay out of its index.ts.
 */
const OWN_CLASSES: Record<string, { file: string; why: string }> = {
  AppError: { file: 'src/shared/errors/appError.ts', why: 'the one error every boundary speaks' },
  BridgeError: {
    file: 'src/main/bridge/errors.ts',
    why: "the bridge answers in OpenAI's error shape (a free-form code and a type), not ErrorPayload's",
  },
  CalcBudgetExceeded: {
    file: 'src/main/spreadsheet/formulas/formulaLimits.ts',
    why: 'stops a calculation from inside the formula library; the engine reads the meter, not the class',
  },
  Cancelled: {
    file: 'src/main/tools/call/invokeMethod.ts',
    why: 'a call whose signal was aborted, told apart from a tool that failed in the same file',
  },
  CannotPass: {
    file: 'src/main/eval/officebench/translate.ts',
    why: 'an evaluation no run can pass, collected as a reason by the translator in the same file',
  },
  CheckFailed: {
    file: 'src/main/eval/checks/context.ts',
    why: 'a check that did not hold, told apart from a check that crashed',
  },
  AskSaxes: {
    file: 'src/main/convert/docx/saxesXmlReader.ts',
    why: 'the plain XML reader hands the part to saxes',
  },
  DeadlineExceeded: {
    file: 'src/main/convert/limits.ts',
    why: "a conversion's abort reason, described as a timeout problem by convert",
  },
  DiskWriteError: {
    file: 'src/main/models/download.ts',
    why: 'a failed write is not resumed like a network error',
  },
  FormatProblem: {
    file: 'src/main/convert/errors.ts',
    why: 'a format module does not know the file name; convert wraps it in a ConvertError (an AppError)',
  },
  GgufHeaderError: {
    file: 'src/main/models/ggufHeader.ts',
    why: 'the header walk; checkGgufHeader adds the path and advice as an AppError',
  },
  IncompleteReplyError: {
    file: 'src/main/llm/errors/failureInfo.ts',
    why: 'a driver signal read by failureInfo; llm classifies it into an AppError',
  },
  LyingServerError: {
    file: 'src/main/models/download.ts',
    why: 'a server that broke HTTP rules is not resumed',
  },
  MalformedReplyError: {
    file: 'src/main/llm/errors/failureInfo.ts',
    why: 'a driver signal read by failureInfo; llm classifies it into an AppError',
  },
  NotPlain: {
    file: 'src/main/convert/xml/plainXml.ts',
    why: 'the fast XML path gives up, caught in the same file',
  },
  ProviderHttpError: {
    file: 'src/main/llm/errors/failureInfo.ts',
    why: 'carries status and headers to failureInfo like an SDK error; llm classifies it into an AppError',
  },
  SharedMemoryExceeded: {
    file: 'src/main/convert/worker/runInWorker.ts',
    why: 'reruns the conversion alone, caught in the same file',
  },
  Unsupported: {
    file: 'src/main/convert/docx/markdown/buildTree.ts',
    why: 'the fast docx path gives up; the converter falls back to the DOM path',
  },
  UsageError: {
    file: 'src/main/cli/program.ts',
    why: 'exit code 2 where an AppError gets 1, inside the CLI only',
  },
  VisionUnavailable: {
    file: 'src/main/convert/visionFallback.ts',
    why: 'picks the OCR-instead warning inside convert and crosses its worker as its own kind',
  },
  WorkerStopped: {
    file: 'src/main/convert/ocr/tesseractOcr.ts',
    why: 'the OCR worker was stopped under a waiting job, caught in the same file',
  },
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    // A .d.ts declares a library's classes, not ours.
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : []
  })
}

/** `class X extends Error` in every source file, as `X` → file. */
function errorClasses(): Map<string, string> {
  const found = new Map<string, string>()
  for (const file of sourceFiles('src'))
    for (const match of readFileSync(file, 'utf8').matchAll(/\bclass\s+(\w+)\s+extends\s+Error\b/g))
      found.set(match[1] as string, file.split('\\').join('/'))
  return found
}

/** The index.ts of the service (the folder right under src/main or src/shared) a file is in. */
function serviceIndex(file: string): string {
  const [src, side, room] = file.split('/')
  return `${src}/${side}/${room}/index.ts`
}

describe('error classes', () => {
  const found = errorClasses()

  it('every class that extends Error is AppError or listed here with its reason', () => {
    expect(found.size).toBeGreaterThan(5)
    const unplaced = [...found.keys()].filter((name) => !OWN_CLASSES[name])
    expect(unplaced, 'make it an AppError code, or list it in OWN_CLASSES with why it needs a class').toEqual(
      [],
    )
    const gone = Object.keys(OWN_CLASSES).filter((name) => !found.has(name))
    expect(gone, 'listed classes that no longer extend Error').toEqual([])
    for (const [name, { file }] of Object.entries(OWN_CLASSES)) expect(found.get(name), name).toBe(file)
  })

  it("keeps the listed classes other than AppError out of their service's index.ts", () => {
    const leaked = Object.entries(OWN_CLASSES)
      .filter(([name]) => name !== 'AppError')
      .filter(([name, { file }]) => {
        const index = serviceIndex(file)
        return existsSync(index) && new RegExp(`\\b${name}\\b`).test(readFileSync(index, 'utf8'))
      })
      .map(([name, { file }]) => `${name} (${serviceIndex(file)})`)
    expect(leaked).toEqual([])
  })
})
