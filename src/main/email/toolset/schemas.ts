import { z } from 'zod'

export const Account = z.string().max(64).optional().describe('Account name; default: the default account.')
export const Folder = z.string().min(1).max(500).default('INBOX')
export const Uid = z.number().int().positive()
export const Uids = z.array(Uid).min(1).max(1000)
export const DateArg = z
  .string()
  .max(40)
  .refine((text) => !Number.isNaN(Date.parse(text)), 'Use a date like 2025-03-01.')
export const Page = z.number().int().min(1).default(1)
export const Count = z.number().int().min(1).max(100).default(20)
export const Addresses = z.array(z.string().min(3).max(320)).max(100)

const Summary = z.object({
  uid: z.number(),
  from: z.array(z.string()),
  to: z.array(z.string()),
  subject: z.string(),
  date: z.string().optional(),
  size: z.number(),
  flags: z.array(z.string()),
  attachments: z.array(z.string()),
  attachment_count: z.number(),
})

export const MessagePageOut = z.object({
  account: z.string(),
  folder: z.string(),
  total: z.number(),
  page: z.number(),
  pages: z.number(),
  next_page: z.number().optional(),
  messages: z.array(Summary),
})

export const ReadOut = z.object({
  account: z.string(),
  folder: z.string(),
  uid: z.number(),
  subject: z.string(),
  from: z.array(z.string()),
  to: z.array(z.string()),
  cc: z.array(z.string()),
  date: z.string().optional(),
  message_id: z.string().optional(),
  flags: z.array(z.string()),
  size: z.number(),
  attachments: z.array(z.object({ name: z.string(), type: z.string(), size: z.number() })),
  attachment_count: z.number(),
  page: z.number(),
  pages: z.number(),
  next_page: z.number().optional(),
  summarised: z.string().optional(),
  /** What was left out or changed: HTML cut or flattened, attachments not all listed. */
  notes: z.array(z.string()).optional(),
  content: z.string(),
})

export const SaveOut = z.object({
  saved: z.array(
    z.object({
      name: z.string(),
      path: z.string(),
      bytes: z.number(),
      backup: z.string().optional(),
      note: z.string().optional(),
    }),
  ),
  skipped: z.array(z.object({ name: z.string(), reason: z.string() })),
})

export const OutgoingIn = {
  account: Account,
  to: Addresses.min(1),
  cc: Addresses.optional(),
  subject: z.string().max(998),
  markdown: z.string().max(1_000_000).describe('The message text in Markdown (sent as HTML and plain text).'),
  attachments: z.array(z.string()).max(50).optional().describe('Workspace files to attach.'),
  in_reply_to: Uid.optional().describe('The uid of the mail this answers (in folder): keeps the thread.'),
  folder: Folder.describe('The folder of the in_reply_to mail.'),
}
