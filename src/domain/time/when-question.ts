/**
 * Whether a question asks when something happened, in English or Russian ("When did…", "What year…", "How long
 * ago…", «Когда…», «В каком году…», «Как давно…»): such a question is answered by dated evidence, so search ranks
 * atoms with an event time higher for it and for nothing else. "What did she do when she was sad?" does not ask when.
 */

const EN =
  /^\W*(?:and\s+|so\s+|but\s+)?(?:when|since\s+when)\b|\b(?:what|which)\s+(?:year|month|date|day|week|decade)\b|\bon\s+what\s+(?:date|day)\b|\bhow\s+long\s+ago\b/i;
const RU =
  /^[^\p{L}]*(?:а\s+|и\s+|но\s+)?когда(?![\p{L}])|(?<![\p{L}])(?:в\s+каком\s+(?:году|месяце|веке)|какого\s+(?:числа|года|месяца)|в\s+какой\s+день|в\s+какие\s+годы|как\s+давно|с\s+каких\s+пор|сколько\s+(?:лет|дней|недель|месяцев)\s+назад)(?![\p{L}])/iu;

/** True when `question` asks when (see module doc). */
export function asksWhen(question: string): boolean {
  return EN.test(question) || RU.test(question);
}
