import { appendFileSync } from 'node:fs'

let log

export function initialize(data) {
  log = data?.log
}

export async function load(url, context, next) {
  if (log) appendFileSync(log, `${url}\n`)
  return next(url, context)
}
