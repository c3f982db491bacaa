/**
 * How a suggested question reads on a chip. The engine writes follow-ups in the sentences its
 * grammar reads back exactly: column names in backticks and values in double quotes ("total
 * `revenue` by month of `order_date` where `region` is "Asia""). A chip shows the same sentence
 * without that markup, which a person reads as a plain question; the chip still asks the exact
 * sentence, and its tooltip shows it.
 */

/** The sentence without backticks around names and quotes around values; spaces collapsed. */
export function plainQuestion(question: string): string {
  return question
    .replace(/`([^`\n]*)`/g, '$1')
    .replace(/"([^"\n]*)"/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The questions to offer, each once by how it reads (two sentences that read alike are one chip). */
export function distinctPlainQuestions(questions: readonly string[]): Array<{ question: string; label: string }> {
  const seen = new Set<string>();
  const out: Array<{ question: string; label: string }> = [];
  for (const q of questions) {
    const question = q.trim();
    const label = plainQuestion(question);
    const key = label.toLowerCase();
    if (label === '' || seen.has(key)) continue;
    seen.add(key);
    out.push({ question, label });
  }
  return out;
}
