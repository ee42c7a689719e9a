import { z } from 'zod'
import { defineToolset, method } from '../tools'
import { readTextFile } from './readTextFile'
import { AgentPathArg, Entry, RestoreReceipt, restoreReceipt, WriteReceipt } from './schemas'

const Overwrite = z
  .boolean()
  .default(false)
  .describe('Replace an existing file (its old content is backed up).')

export function createFilesToolset() {
  return defineToolset({
    name: 'files',
    summary: 'Lists, reads, writes, moves, copies and deletes files in the workspace (paths start at /).',
    description:
      'The workspace is a folder the user shared; "/" is its root and every path is a workspace path like "/notes/a.txt". ' +
      'Paths that leave the workspace ("..", drive letters, URLs, links pointing outside) are refused with the rule that was broken. ' +
      'Overwrites keep numbered backups ("a.001.bak"), deletes go to a trash that can be restored, and every change is recorded in the history toolset.',
    methods: {
      list: method({
        description:
          'Lists a folder: name, type, size and modified time of each entry, sorted by path, paged.',
        input: z.object({
          path: AgentPathArg.default('/'),
          glob: z
            .string()
            .optional()
            .describe('Only entries matching this pattern, e.g. "*.xlsx" or "reports/**/*.pdf".'),
          recursive: z.boolean().default(false).describe('Include the contents of subfolders.'),
          offset: z.number().int().min(0).default(0).describe('Skip this many entries (from next_offset).'),
          limit: z.number().int().min(1).max(1000).default(100),
        }),
        output: z.object({
          path: z.string(),
          entries: z.array(Entry),
          total: z.number().int(),
          next_offset: z.number().int().optional().describe('Pass as offset for the next page.'),
          truncated: z.boolean().describe('true when the folder tree was too large to walk completely.'),
        }),
        examples: [{ path: '/' }, { path: '/reports', glob: '*.xlsx', recursive: true }],
        risk: 'read',
        run: async ({ path, glob, recursive, offset, limit }, ctx) => {
          const result = await ctx.workspace.list(path, {
            recursive,
            offset,
            limit,
            ...(glob ? { glob } : {}),
          })
          const { nextOffset, ...rest } = result
          return nextOffset === undefined ? rest : { ...rest, next_offset: nextOffset }
        },
      }),
      read: method({
        description:
          'Reads a text file (txt, md, csv, json, code...) as text, optionally a range of lines (1-based, inclusive). ' +
          'Long files come back in parts: when truncated is true, call again with start_line = next_start_line. ' +
          'Documents, spreadsheets, PDFs and images are not plain text: read them with convert to_markdown.',
        input: z.object({
          path: AgentPathArg,
          start_line: z.number().int().min(1).optional().describe('First line to return (default 1).'),
          end_line: z.number().int().min(1).optional().describe('Last line to return (default: the end).'),
          max_chars: z
            .number()
            .int()
            .min(100)
            .max(200_000)
            .default(50_000)
            .describe('Most characters to return.'),
        }),
        output: z.object({
          path: z.string(),
          content: z.string(),
          start_line: z.number().int(),
          end_line: z.number().int(),
          total_lines: z.number().int(),
          truncated: z.boolean(),
          next_start_line: z.number().int().optional(),
        }),
        examples: [{ path: '/notes/a.txt' }, { path: '/logs/app.log', start_line: 100, end_line: 150 }],
        risk: 'read',
        run: (args, ctx) => readTextFile(ctx.workspace, args),
      }),
      writeText: method({
        description:
          'Creates or overwrites a text file (UTF-8). Missing folders are created. Overwriting keeps the old content as a numbered backup.',
        input: z.object({
          path: AgentPathArg,
          content: z.string().describe('The complete new content of the file.'),
        }),
        output: WriteReceipt,
        examples: [{ path: '/notes/a.txt', content: 'hello' }],
        risk: 'write',
        run: ({ path, content }, ctx) => ctx.workspace.writeFile(path, content),
      }),
      appendText: method({
        description:
          'Adds text to the end of a file (created if missing). Add "\\n" yourself where you want a new line.',
        input: z.object({ path: AgentPathArg, content: z.string().describe('Text to add at the end.') }),
        output: WriteReceipt,
        examples: [{ path: '/notes/log.txt', content: 'done\n' }],
        risk: 'write',
        run: ({ path, content }, ctx) => ctx.workspace.appendText(path, content),
      }),
      mkdir: method({
        description: 'Creates a folder (and any missing parents). Succeeds if it already exists.',
        input: z.object({ path: AgentPathArg }),
        output: z.object({ path: z.string(), created: z.boolean() }),
        examples: [{ path: '/reports/2025' }],
        risk: 'write',
        run: ({ path }, ctx) => ctx.workspace.mkdir(path),
      }),
      move: method({
        description:
          'Moves or renames a file or folder. Refuses to replace an existing destination unless overwrite is true (files only).',
        input: z.object({ from: AgentPathArg, to: AgentPathArg, overwrite: Overwrite }),
        output: transferReceipt(),
        examples: [{ from: '/draft.txt', to: '/final/report.txt' }],
        risk: 'write',
        run: async ({ from, to, overwrite }, ctx) =>
          transferOut(await ctx.workspace.move(from, to, { overwrite })),
      }),
      copy: method({
        description:
          'Copies a file or a whole folder. Refuses to replace an existing destination unless overwrite is true (files only).',
        input: z.object({ from: AgentPathArg, to: AgentPathArg, overwrite: Overwrite }),
        output: transferReceipt(),
        examples: [{ from: '/report.xlsx', to: '/report-copy.xlsx' }],
        risk: 'write',
        run: async ({ from, to, overwrite }, ctx) =>
          transferOut(await ctx.workspace.copy(from, to, { overwrite })),
      }),
      delete: method({
        description:
          'Deletes a file or folder by moving it to the trash; restore_deleted with the returned trash_id brings it back.',
        input: z.object({ path: AgentPathArg }),
        output: z.object({ path: z.string(), type: z.enum(['file', 'directory']), trash_id: z.string() }),
        examples: [{ path: '/old/draft.txt' }],
        risk: 'write',
        run: async ({ path }, ctx) => {
          const receipt = await ctx.workspace.delete(path)
          return { path: receipt.path, type: receipt.type, trash_id: receipt.trashId }
        },
      }),
      stat: method({
        description: 'Tells whether a path is a file or folder, with its size and modified time.',
        input: z.object({ path: AgentPathArg }),
        output: Entry,
        examples: [{ path: '/notes/a.txt' }],
        risk: 'read',
        run: ({ path }, ctx) => ctx.workspace.stat(path),
      }),
      find: method({
        description:
          'Finds files and folders by name anywhere below a folder. Patterns: "*.xlsx", "report*", "**/2025/*.csv". Case-insensitive.',
        input: z.object({
          pattern: z.string().min(1).describe('Name pattern; with "/" it matches the path below path.'),
          path: AgentPathArg.default('/').describe('Folder to search in (default: the whole workspace).'),
          limit: z.number().int().min(1).max(1000).default(100),
        }),
        output: z.object({ matches: z.array(Entry), truncated: z.boolean() }),
        examples: [{ pattern: '*.xlsx' }, { pattern: 'budget*', path: '/finance' }],
        risk: 'read',
        run: ({ pattern, path, limit }, ctx) => ctx.workspace.find(pattern, { dir: path, limit }),
      }),
      listTrash: method({
        description: 'Lists deleted files and folders that can be restored, newest first.',
        input: z.object({}),
        output: z.object({
          items: z.array(
            z.object({
              trash_id: z.string(),
              path: z.string(),
              type: z.enum(['file', 'directory']),
              deleted_at: z.string(),
            }),
          ),
        }),
        risk: 'read',
        run: async (_args, ctx) => ({
          items: (await ctx.workspace.listTrash()).map((entry) => ({
            trash_id: entry.id,
            path: entry.originalPath,
            type: entry.type,
            deleted_at: entry.deletedAt,
          })),
        }),
      }),
      restoreDeleted: method({
        description: 'Brings a deleted file or folder back from the trash, to its old path or to `to`.',
        input: z.object({
          trash_id: z.string().describe('From delete or list_trash.'),
          to: AgentPathArg.optional().describe('Where to put it (default: where it was).'),
        }),
        output: z.object({ path: z.string(), type: z.enum(['file', 'directory']) }),
        risk: 'write',
        run: ({ trash_id, to }, ctx) => ctx.workspace.restoreDeleted(trash_id, to),
      }),
      listBackups: method({
        description: 'Lists the numbered backups of a file (newest first).',
        input: z.object({ path: AgentPathArg }),
        output: z.object({
          backups: z.array(
            z.object({
              path: z.string(),
              number: z.number().int(),
              size: z.number().int(),
              modified: z.string(),
            }),
          ),
        }),
        examples: [{ path: '/reports/report.xlsx' }],
        risk: 'read',
        run: async ({ path }, ctx) => ({ backups: await ctx.workspace.listBackups(path) }),
      }),
      restoreBackup: method({
        description:
          'Puts a backup back in place of the file (default: the newest backup). The current content is backed up first, so this can be undone.',
        input: z.object({
          path: AgentPathArg.describe('The file to restore (not the .bak file).'),
          number: z.number().int().min(1).optional().describe('Backup number, e.g. 3 for "report.003.bak".'),
        }),
        output: RestoreReceipt,
        examples: [{ path: '/reports/report.xlsx' }],
        risk: 'write',
        run: async ({ path, number }, ctx) => restoreReceipt(await ctx.workspace.restoreBackup(path, number)),
      }),
    },
  })
}

function transferReceipt() {
  return z.object({
    from: z.string(),
    to: z.string(),
    type: z.enum(['file', 'directory']),
    files: z.number().int(),
    skipped_links: z.number().int().optional().describe('Symbolic links not copied.'),
    backup: z.string().optional(),
  })
}

function transferOut(receipt: {
  from: string
  to: string
  type: 'file' | 'directory'
  files: number
  skippedLinks?: number
  backup?: string
}) {
  const { skippedLinks, ...rest } = receipt
  return skippedLinks === undefined ? rest : { ...rest, skipped_links: skippedLinks }
}
