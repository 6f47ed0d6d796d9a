/**
 * Words that turn a statement into another one without a negation, a number or a name: antonyms ("alive" vs
 * "dead", "before" vs "after", "включено" vs "выключено"), quantifiers ("all" vs "some", "всегда" vs "иногда"),
 * the negating prefixes of English and Russian ("in-significant", "не-возможно", "без-опасно"), and the Russian
 * preposition variants that are one word ("во вторник" = "в понедельник" but for the day). English and Russian,
 * lower case with ё folded to е; hand-written from ordinary grammar. Read by domain/meaning/statement.ts and meaning.ts.
 */

/**
 * Antonym groups: a name, the words of one pole, the words of the other. A word ending in "*" stands for every word
 * that begins with it ("enabl*": enable, enabled, enabling). A word may belong to several groups. Two statements
 * conflict on a group only when one states one pole and the other only the opposite one (meaning.ts).
 */
const GROUPS: ReadonlyArray<readonly [string, string, string]> = [
  [
    "alive",
    "alive living жив жива живы живой живая живое живые живого живых живым живыми живому живую",
    "dead deceased мертв*",
  ],
  ["pass", "pass passes passed passing succeed* success* сдал сдала сдали сдан сдана сданы", "fail* провал*"],
  ["true", "true истинн* правда", "false ложн* ложь"],
  ["enable", "enabl* включ*", "disabl* выключ* отключ*"],
  ["include", "includ* включ*", "exclud* исключ*"],
  ["install", "установ*", "удал* деинсталл*"],
  ["safe", "safe safely safety безопасн*", "dangerous* unsafe опасн*"],
  ["before", "before prior earlier раньше ранее до перед", "after afterwards later позже позднее после спустя"],
  ["up", "up upward upwards upstairs вверх наверх", "down downward downwards downstairs вниз книзу"],
  ["open", "open opened opens opening открыт* открыв* откро*", "closed shut закрыт* закрыв* закро*"],
  ["allow", "allow* permit* разреш*", "forbid* forbade prohibit* deny denied denies запрещ* запрет*"],
  ["accept", "accept* одобр*", "reject* отклон* отверг*"],
  ["positive", "positive положительн*", "negative отрицательн*"],
  ["present", "present присутств*", "absent absence отсутств*"],
  ["win", "win wins won winning выигр* побед*", "lose loses losing lost проигр*"],
  ["max", "maximum maximal max максим*", "minimum minimal миним*"],
  ["high", "high высок*", "low низк*"],
  ["male", "male men man мужск* мужчин*", "female women woman женск* женщин*"],
  ["inner", "internal inner inside внутренн* внутри", "external outer outside внешн* снаружи"],
  ["early", "early рано ранн*", "late поздно поздн*"],
  ["add", "add adds added adding добав*", "remove* delet* удал*"],
  [
    "start",
    "start starts started starting begin begins began begun начин* начал* начат*",
    "stop stops stopped stopping finish* end ends ended прекрат* прекращ* законч* заканчив* останов*",
  ],
  [
    "correct",
    "correct correctly right правильн* верно верный верная верное верные",
    "wrong wrongly incorrect* ошибочн* неверн* неправильн*",
  ],
  [
    "same",
    "same identical одинаков* идентичн*",
    "different difference differences differ differs differed differing distinct разн* различ* отлича*",
  ],
  ["hot", "hot горяч*", "cold холодн*"],
  ["good", "good хорош*", "bad плох*"],
  ["long", "long длинн* долг*", "short коротк* кратк*"],
  ["fast", "fast quick quickly rapid rapidly быстр*", "slow slowly медлен*"],
  ["show", "show shows shown showed visible показ*", "hide hides hid hidden скры* скрыт* невидим*"],
  [
    "love",
    "love loves loved люблю любит любят любил любила любили",
    "hate hates hated ненавижу ненавидит ненавидят ненавидел ненавидела ненавидели",
  ],
  ["east", "east eastern восточн* восток*", "west western западн* запад*"],
  ["north", "north northern северн* север*", "south southern южн* юг юга югу югом юге"],
  [
    "required",
    "required mandatory obligatory necessary обязательн* необходим*",
    "optional необязательн* опциональн* факультативн*",
  ],
  ["import", "import imports imported importing", "export exports exported exporting"],
  ["input", "input inputs", "output outputs"],
  ["buy", "buy buys bought buying покуп* купил* купить", "sell sells sold selling продал* продать продаж*"],
  ["day", "daytime днем", "night nighttime ночью ночной ночная ночные"],
  ["rich", "rich богат*", "poor бедн*"],
  ["strong", "strong strongly сильн*", "weak weakly слаб*"],
  ["full", "full полн*", "empty пуст*"],
  ["public", "public публичн*", "private приватн* частн*"],
  ["online", "online онлайн", "offline офлайн оффлайн"],
  ["above", "above сверху", "below beneath снизу"],
  ["static", "static statically статическ* статичн*", "dynamic dynamically динамическ* динамичн*"],
  ["manual", "manual manually вручную ручн*", "automatic automatically автоматическ* автоматичн*"],
  ["local", "local locally локальн* местн*", "remote remotely удаленн* дистанционн*"],
  [
    "new",
    "new newer новый новая новое новые нового новых новым новыми новой новую",
    "old older старый старая старое старые старого старых старым старыми старой старую",
  ],
  ["young", "young younger молод*", "old older elderly пожил*"],
  ["free", "free бесплатн*", "paid платн*"],
];

const EXACT_POLES = new Map<string, string[]>();
/** Prefix entries by their first three letters (every prefix has at least three), for one lookup per word. */
const PREFIX_POLES = new Map<string, Array<[string, string]>>();
for (const [name, plus, minus] of GROUPS) {
  for (const [words, sign] of [
    [plus, "+"],
    [minus, "-"],
  ] as const) {
    for (const w of words.split(" ")) {
      if (!w.endsWith("*")) EXACT_POLES.set(w, [...(EXACT_POLES.get(w) ?? []), name + sign]);
      else PREFIX_POLES.set(w.slice(0, 3), [...(PREFIX_POLES.get(w.slice(0, 3)) ?? []), [w.slice(0, -1), name + sign]]);
    }
  }
}
const NO_POLES: readonly string[] = [];

/** The antonym poles a lower-case word states, as "group+" / "group-" (empty for most words). Do not mutate. */
export function polesOf(w: string): readonly string[] {
  const exact = EXACT_POLES.get(w);
  const prefixed = PREFIX_POLES.get(w.slice(0, 3));
  if (!prefixed) return exact ?? NO_POLES;
  const out = exact ? [...exact] : [];
  for (const [prefix, pole] of prefixed) if (w.startsWith(prefix) && !out.includes(pole)) out.push(pole);
  return out;
}

/** The same pole with its sign turned over ("alive+" → "alive-"): a negated antonym ("not dead" is alive). */
export function flipPole(pole: string): string {
  return pole.slice(0, -1) + (pole.endsWith("+") ? "-" : "+");
}

/**
 * Quantifiers of amount and frequency by class: `all` (all, every, always, все, каждый, всегда), `most` (most,
 * usually, often, большинство, обычно, часто), `many`, `some` (some, several, sometimes, некоторые, несколько,
 * иногда), `few` (few, rarely, немногие, редко). "never"/"none"/"никогда" are negations, not listed here.
 */
export const QUANTIFIERS: ReadonlyMap<string, string> = (() => {
  const m = new Map<string, string>();
  const add = (cls: string, words: string) => {
    for (const w of words.split(/\s+/u)) m.set(w, cls);
  };
  add(
    "all",
    `all every each always everyone everybody everything все всех всем всеми весь вся всю всей всегда каждый каждая
    каждое каждые каждого каждой каждому каждым каждом каждую каждых любой любая любое любые любого любому любым любом любую любых`,
  );
  add(
    "most",
    `most mostly usually generally often frequently typically normally commonly majority большинство большинства
    большинству большинством большинстве обычно обыкновенно часто зачастую`,
  );
  add("many", "many numerous многие многих многим многими");
  add(
    "some",
    `some several sometimes occasionally некоторые некоторых некоторым некоторыми некоторый некоторая некоторое
    некоторого некоторой некоторому некоторую несколько нескольких нескольким несколькими иногда порой временами`,
  );
  add("few", "few rarely seldom minority немногие немногих немногим немногими редко меньшинство");
  return m;
})();

/**
 * Words after which a quantifier word is not one: "at all", "after all", "all right", "each other", "все-таки",
 * "все равно", "все же", "все еще" (still), "во всём мире", "весь мир" (the whole world). Keyed by the quantifier; [words before, words after].
 */
export const QUANTIFIER_IDIOMS: ReadonlyMap<string, readonly [readonly string[], readonly string[]]> = new Map([
  ["all", [["at", "after"], ["right"]]],
  ["each", [[], ["other"]]],
  ["все", [[], ["таки", "равно", "же", "еще"]]],
  // "во всём мире", "на всём свете", "весь мир", "всего мира": the whole world, an intensifier ("in the whole world").
  ["всем", [[], ["мире", "свете"]]],
  ["весь", [[], ["мир", "свет"]]],
  ["всего", [[], ["мира", "света"]]],
  ["всей", [[], ["планете", "земле"]]],
]);

/** English and Russian prefixes that negate the word they are glued to ("unsafe", "невозможно", "бесполезно"). */
export const NEGATING_PREFIXES: readonly string[] = ["non", "dis", "un", "in", "im", "il", "ir", "не", "без", "бес"];

/**
 * Light stems that begin with a negating prefix without being negations of the rest ("install" is not "in-stall",
 * "некоторый" is not "не-который"): the prefix rule of meaning.ts skips them.
 */
export const NOT_PREFIX_NEGATED: ReadonlySet<string> = new Set([
  "install",
  "inform",
  "income",
  "import",
  "impress",
  "impos",
  "improv",
  "impair",
  "impact",
  "implant",
  "invest",
  "invent",
  "insight",
  "inside",
  "input",
  "index",
  "interest",
  "instanc",
  "intak",
  "instead",
  "intend",
  "indeed",
  "insur",
  "inland",
  "impart",
  "irat",
  "unless",
  "dismiss",
  "diseas",
  "dispos",
  "disclos",
  "discharg",
  "discount",
  "display",
  "dispatch",
  "disband",
  "discover",
  "discours",
  "distanc",
  "некотор",
  "нескольк",
  "немец",
  "недел",
  "невест",
  "бесед",
]);

/** Russian preposition variants that are one word ("во вторник", "со мной", "обо всем"): variant → base. */
export const PREPOSITION_VARIANTS: ReadonlyMap<string, string> = new Map([
  ["во", "в"],
  ["ко", "к"],
  ["со", "с"],
  ["об", "о"],
  ["обо", "о"],
  ["изо", "из"],
  ["ото", "от"],
  ["подо", "под"],
]);
