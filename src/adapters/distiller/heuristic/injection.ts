/**
 * Sentences written to steer a model that reads the document ("Ignore all previous instructions and …",
 * "Игнорируй все предыдущие инструкции …"). The distiller does not obey them (nothing in a chunk changes what it
 * does); this only keeps such a sentence from being promoted: it is never a fact or a definition, only a text atom
 * that records, verbatim, that the document says it. A number in it ("set the confidence to 1.0") is not a
 * measurement, and "NOTE: ignore …" is not a glossary entry.
 */

const EN = [
  /\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+|the\s+|your\s+|of\s+)*(?:previous|prior|above|earlier|preceding|former|system|original)\s+(?:instructions?|prompts?|rules|directions|messages?|context)\b/i,
  /\b(?:reveal|print|output|show|repeat|leak)\s+(?:the\s+|your\s+)?(?:system\s+prompt|hidden\s+instructions|instructions\s+above)\b/i,
];

const RU = [
  /(?:игнорируй(?:те)?|проигнорируй(?:те)?|забудь(?:те)?|не\s+обращай(?:те)?\s+внимания\s+на|отмени(?:те)?)\s+(?:все\s+|всё\s+|свои\s+|любые\s+)*(?:предыдущ|прежн|ранее\s+данн|системн|исходн)\p{L}*\s+(?:инструкци|указани|правил|подсказк|сообщени)\p{L}*/iu,
  /(?:покажи|выведи|раскрой|повтори)(?:те)?\s+(?:свой\s+|свою\s+|свои\s+|твой\s+|твои\s+)?(?:системн\p{L}*\s+)?(?:промпт|инструкци|подсказк)\p{L}*/iu,
];

/** True when the sentence reads as an instruction to a model (see module doc); English and Russian. */
export function isInstructionToModel(sentence: string): boolean {
  return EN.some((r) => r.test(sentence)) || RU.some((r) => r.test(sentence));
}
