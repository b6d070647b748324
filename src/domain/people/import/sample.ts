// CSV import of users (spec 02 "Edit-by-import dialog", sections 5, 8, 9): the import log and the
// sample file. The import itself is a streamed job: import-csv.ts (bytes, decoding, parsing) and
// import-jobs.ts (upload, staging, the all-or-nothing switch), decision 0030.
import Papa from 'papaparse';
import type { Lang } from '../../../shared/i18n';
import { IMPORT_HEADERS, IMPORT_READING_HEADER } from '../../../shared/people/schemas';

/** The sample file: header row in the caller's language (with the optional reading column last, decision 0045) and two example rows. */
export function sampleCsv(lang: Lang): string {
  const example =
    lang === 'ja'
      ? [['山田 太郎', 'taro.yamada@example.com', '営業部', '開発部|総務部', '1', '0', '0', 'ヤマダ タロウ'], ['佐藤 花子', 'hanako.sato@example.com', '', '', '1', '1', '1', 'サトウ ハナコ']]
      : [['Taro Yamada', 'taro.yamada@example.com', 'Sales', 'Development|General affairs', '1', '0', '0', ''], ['Hanako Sato', 'hanako.sato@example.com', '', '', '1', '1', '1', '']];
  return Papa.unparse([[...IMPORT_HEADERS[lang], IMPORT_READING_HEADER[lang]], ...example], { newline: '\r\n' }) + '\r\n';
}

