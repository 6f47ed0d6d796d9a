/**
 * Word lists of the heuristic distiller, English and Russian, lower case (ё written е). They decide what cannot be
 * the term of a definition (pronouns, function words, vague heads such as "example" or "цель") and what marks a
 * measurement (units, months). Kept closed and small on purpose: a miss costs one atom of a weaker type (text instead
 * of definition), a wrong entry would turn ordinary sentences into definitions.
 */

function set(words: string): ReadonlySet<string> {
  return new Set(words.split(/\s+/).filter(Boolean));
}

/** English words that never start or make up a defined term: pronouns, determiners, conjunctions, prepositions. */
export const EN_FUNCTION = set(`
  i you he she it we they me him her us them my your his its our their this that these those there here
  what which who whom whose where when why how whether if then than so such both either neither each every all
  any some many much more most few several other another same none no not nor but and or yet also only just even
  in on at by for with from to into onto of about over under after before during since until upon within without
  inside outside near across along around behind beyond beside toward towards against like unlike
  through between among against as via per because although though while unless once however thus therefore hence
  moreover furthermore indeed still already again now today yesterday tomorrow here there
  is are was were be been being has have had do does did can could will would shall should may might must
  let lets let's according note see please mine yours hers ours theirs everything something nothing anything
  everyone someone nobody anybody`);

/** English nouns and adjectives that make a subject vague rather than a term ("The main barrier is …"). */
export const EN_VAGUE = set(`
  example examples approach problem problems result results goal goals aim aims purpose reason reasons question
  questions point thing things way ways idea fact issue issues advantage advantage disadvantage difference answer
  solution outcome consequence conclusion finding findings step steps option options case cases part rest majority
  number amount figure table section paper article study work author authors method methods difference
  main first second third fourth fifth next last only key important same following above below present current new
  previous latter former best worst simplest most primary major minor one two three whole total real true good bad
  nice great big small thing`);

/** Russian words that never start or make up a defined term: pronouns, particles, conjunctions, prepositions. */
export const RU_FUNCTION = set(`
  я ты он она оно мы вы они меня тебя его ее её нас вас их мне ему ей нам вам им мой твой свой наш ваш
  это этот эта эти этого этой этом тот та те того том такой такая такое такие все всё весь вся всех каждый каждая
  кто что который которая которое которые какой какая какое какие чей где когда куда откуда почему зачем как
  не ни да нет вот вон уж уже лишь только даже ведь же ли бы именно разве неужели
  и а но или либо если когда чтобы потому поэтому так то тоже также зато однако хотя пока будто словно
  в во на с со к ко по о об обо от до из за для без под над при про через у между перед около после среди
  был была было были будет есть нет надо можно нельзя
  один одна одно два две три четыре пять шесть семь восемь девять десять двенадцать пятнадцать двадцать сто
  лет год года раз насколько сколько много мало`);

/** Russian nouns that make a subject vague rather than a term ("Целью работы является …"). */
export const RU_VAGUE = set(`
  цель целью задача задачей результат результатом пример примером вопрос проблема причина способ метод
  особенность преимущество недостаток разница отличие вывод итог часть основа суть смысл дело случай`);

/** Russian number words, which make "X – Y" a range ("двенадцать – пятнадцать"), not a definition. */
export const RU_NUMBER =
  /^(?:один|одна|одно|два|две|три|четыре|пять|шесть|семь|восемь|девять|десять|\p{L}+надцать|\p{L}+десят|двадцать|тридцать|сорок|девяносто|сто|двести|триста|тысяч\p{L}*|миллион\p{L}*|полтора|несколько)$/u;

/** Month names (English capitalized, matched case-sensitively; Russian in the common case forms). */
export const EN_MONTHS =
  "January|February|March|April|May|June|July|August|September|October|November|December|Jan\\.|Feb\\.|Mar\\.|Apr\\.|Jun\\.|Jul\\.|Aug\\.|Sept?\\.|Oct\\.|Nov\\.|Dec\\.";

/** Russian month names: nominative, genitive and prepositional forms. */
export const RU_MONTHS =
  "январ[ьяе]|феврал[ьяе]|март[ае]?|апрел[ьяе]|ма[йяе]|июн[ьяе]|июл[ьяе]|август[ае]?|сентябр[ьяе]|октябр[ьяе]|ноябр[ьяе]|декабр[ьяе]";

/**
 * Units after a number (SI and common, English and Russian abbreviations, currencies and magnitude words). Longer
 * spellings come first so that the alternation prefers them.
 */
export const UNITS = [
  "%",
  "‰",
  "°\\s?[CFС]",
  "°",
  "K",
  "kHz",
  "MHz",
  "GHz",
  "Hz",
  "кГц",
  "МГц",
  "ГГц",
  "Гц",
  "ns",
  "µs",
  "μs",
  "ms",
  "sec",
  "seconds?",
  "s",
  "min",
  "minutes?",
  "h",
  "hrs?",
  "hours?",
  "days?",
  "weeks?",
  "months?",
  "years?",
  "нс",
  "мкс",
  "мс",
  "сек",
  "с",
  "мин",
  "ч",
  "сут",
  "дн(?:ей|я)?",
  "недел[ьи]",
  "месяц(?:а|ев)?",
  "лет",
  "год(?:а|у)?",
  "гг?\\.",
  "nm",
  "µm",
  "μm",
  "mm",
  "cm",
  "km",
  "m",
  "нм",
  "мкм",
  "мм",
  "см",
  "км",
  "м",
  "ng",
  "µg",
  "μg",
  "mg",
  "kg",
  "g",
  "t",
  "нг",
  "мкг",
  "мг",
  "кг",
  "г",
  "т",
  "µl",
  "μl",
  "µL",
  "μL",
  "ml",
  "mL",
  "l",
  "L",
  "мкл",
  "мл",
  "л",
  "mM",
  "µM",
  "μM",
  "nM",
  "M",
  "mol",
  "ммоль",
  "моль",
  "kB",
  "KB",
  "MB",
  "GB",
  "TB",
  "KiB",
  "MiB",
  "GiB",
  "TiB",
  "bytes?",
  "bits?",
  "Кб",
  "Мб",
  "Гб",
  "Тб",
  "байт",
  "mV",
  "kV",
  "V",
  "mA",
  "A",
  "mW",
  "kW",
  "MW",
  "W",
  "Pa",
  "kPa",
  "MPa",
  "hPa",
  "dB",
  "дБ",
  "Вт",
  "кВт",
  "В",
  "А",
  "Па",
  "кПа",
  "МПа",
  "руб\\.?",
  "р\\.",
  "коп\\.?",
  "долл\\.?",
  "евро",
  "USD",
  "EUR",
  "RUB",
  "млрд\\.?",
  "млн\\.?",
  "тыс\\.?",
  "million",
  "billion",
  "thousand",
  "trillion",
  "px",
  "fps",
  "rpm",
  "ppm",
  "mmHg",
  "bpm",
];

/** Abbreviations after which a sentence segmenter's break is not a sentence end (lower case, with the dot). */
export const ABBREVIATIONS = set(`
  mr. mrs. ms. dr. prof. st. jr. sr. vs. e.g. i.e. etc. cf. al. fig. figs. eq. eqs. no. nos. vol. pp. p. approx. ca.
  ref. refs. sec. ch. ed. eds. inc. ltd. co. corp. dept. univ. u.s. u.k. jan. feb. mar. apr. jun. jul. aug. sep.
  sept. oct. nov. dec. т. е. т.е. т.д. т.п. т.к. др. пр. рис. табл. стр. см. ср. им. г. гг. в. вв. акад. проф. ул.
  д. с. н. э. ок. напр.`);
