/**
 * Words and verb phrases behind supersession (domain/supersession/claim.ts), English and Russian: the properties a
 * person or thing holds one value of at a time (an employer, a city of residence, a version, a status, a role, a
 * relationship, an owner), the phrases that state them, and the markers of a change ("now", «теперь»), of an
 * addition ("also", «также») and of the past ("used to", «раньше»). Regular expressions over text with ё folded to е.
 */

/** A property a subject holds one value of at a time (`consulting` and `state` are held alongside others). */
export type PropertyKind =
  | "employer"
  | "residence"
  | "version"
  | "status"
  | "role"
  | "office"
  | "relationship"
  | "owner"
  | "uses"
  | "consulting"
  | "state";

/** Properties whose newer value replaces the older one; the rest supersede nothing. */
export const EXCLUSIVE: ReadonlySet<PropertyKind> = new Set([
  "employer",
  "residence",
  "version",
  "status",
  "role",
  "office",
  "relationship",
  "owner",
  "uses",
]);

/** Where the subject and the value stand around the verb phrase. */
export type Order = "subject-verb-value" | "value-verb-subject";

/** One verb phrase: the property it states, and whether it says a change, a past state or an end. */
export interface VerbPattern {
  property: PropertyKind | "switch";
  /** Source of a regular expression (flags `iu`), matched at word boundaries. */
  verb: string;
  order?: Order;
  change?: boolean;
  past?: boolean;
  /** The value is this word, not what follows ("got divorced" → divorced). */
  value?: string;
  /** An end of the state (the value is what ended: "lost her job at Door Dash"). */
  ended?: boolean;
  /** A word put before the value ("is dating Bob" → dating bob): another state with the same partner differs. */
  state?: string;
}

const STATUS_EN =
  "open|closed|active|inactive|deprecated|archived|on hold|paused|cancell?ed|canceled|completed?|finished|in progress|pending|resolved|merged|approved|rejected|discontinued|suspended|abandoned|unmaintained|shut down|defunct|offline|online|in beta|in alpha|stable|frozen|retired|live";
const STATUS_RU =
  "закрыт[аоы]?|открыт[аоы]?|приостановлен[аоы]?|заверш[её]н[аоы]?|отмен[её]н[аоы]?|заморожен[аоы]?|архивирован[аоы]?|активн[аоы]?|активен|неактивн[аоы]?|неактивен|устарел[аои]?|в работе|в архиве|одобрен[аоы]?|отклон[её]н[аоы]?";
const REL_EN = "single|married|engaged|divorced|widowed|separated|in a relationship";
const REL_RU =
  "холост|одинок[аи]?|женат|замужем|не замужем|развед[её]н[аы]?|разведена|вдова|вдовец|помолвлен[аы]?|в разводе|в браке";

/** Status words (after a copula). */
export const STATUS_WORDS = new RegExp(`^(?:${STATUS_EN}|${STATUS_RU})$`, "iu");
/** Relationship states (after a copula). */
export const RELATIONSHIP_WORDS = new RegExp(`^(?:${REL_EN}|${REL_RU})$`, "iu");

const BE_NOW = "(?:is|are|was|has been|have been|became|has become|becomes|is now|was now)";

/** Verb phrases, longest first within a property (the first match in a text wins by position, then by length). */
export const VERBS: readonly VerbPattern[] = [
  // employer
  { property: "employer", verb: "(?:is|was) (?:now )?(?:employed|hired) (?:at|by)", change: false },
  { property: "employer", verb: "has been (?:employed|hired|working) (?:at|by|for)" },
  { property: "employer", verb: "(?:works|is working|work) (?:at|for)" },
  { property: "employer", verb: "(?:worked|was working|had worked) (?:at|for)", past: true },
  {
    property: "employer",
    verb: "(?:joined|has joined|took a (?:new )?job (?:at|with)|got a (?:new )?job (?:at|with)|started (?:a (?:new )?job|working) (?:at|for)|went to work (?:at|for)|was hired by|has been hired by|(?:has )?moved to a (?:new )?job at|now has a job at|has a new job at)",
    change: true,
  },
  { property: "employer", verb: "(?:работает|трудится|служит|работаю) (?:в|во|на)" },
  { property: "employer", verb: "(?:работал|работала|трудился|трудилась|служил|служила) (?:в|во|на)", past: true },
  {
    property: "employer",
    verb: "(?:устроил(?:ся|ась)|перешл[аи]|перешел|ушл[аи]|ушел) (?:на работу |работать )?(?:в|во|на)",
    change: true,
  },
  { property: "employer", verb: "(?:plays|is playing|played) (?:for|with)" },
  {
    property: "employer",
    verb: "(?:signed|has signed) (?:with|for)(?: a new team,?)?|(?:was|has been) traded to|found a (?:new )?job (?:at|with)",
    change: true,
  },
  {
    property: "employer",
    verb: "(?:lost|quit|left) (?:his|her|my|their|the) job (?:at|with)|(?:was|got) (?:laid off|fired) (?:from|by)|(?:уволил(?:ся|ась)|уволен[аы]?) (?:из|с)|потерял[аи]? работу (?:в|на)",
    change: true,
    ended: true,
  },
  {
    property: "employer",
    verb: "(?:is|was|became|has become) (?:now )?(?=(?:unemployed|self-employed|retired|jobless|out of work|(?:his|her|my|their) own boss|a freelancer)(?![\\p{L}]))|(?:теперь |сейчас )?(?=(?:безработн\\p{L}*|на пенсии|сам себе начальник)(?![\\p{L}]))",
  },
  // consulting and side jobs: held alongside an employer
  {
    property: "consulting",
    verb: "(?:consults|is consulting|consulted|advises|freelances|moonlights) (?:for|at|with)",
  },
  { property: "consulting", verb: "(?:консультирует|подрабатывает) (?:в|во|на)?" },
  // residence
  { property: "residence", verb: "(?:lives|is living|live|resides|is based|is settled|is staying) in" },
  { property: "residence", verb: "(?:lived|was living|had lived|resided|was based) in", past: true },
  {
    property: "residence",
    verb: "(?:moved|has moved|have moved|relocated|has relocated|is moving|moves|settled|has settled) (?:back )?(?:to|in)",
    change: true,
  },
  { property: "residence", verb: "(?:живет|проживает|живу|обитает) (?:в|во|на)" },
  { property: "residence", verb: "(?:жил|жила|проживал|проживала) (?:в|во|на)", past: true },
  {
    property: "residence",
    verb: "(?:переехал[аи]?|перебрал(?:ся|ась)|поселил(?:ся|ась)|обосновал(?:ся|ась)) (?:жить )?(?:в|во|на)",
    change: true,
  },
  // version
  {
    property: "version",
    verb: "(?:is (?:now )?at|is now on|(?:was|has been|got|is) (?:updated|upgraded|bumped) to|(?:updated|upgraded) to) (?:version |v(?=\\d))?",
    change: true,
  },
  {
    property: "version",
    verb: "(?:обновл(?:ен|ена|ено|ены|ился|илась|илось)|теперь на версии) (?:до )?(?:версии )?",
    change: true,
  },
  { property: "version", verb: "(?:runs|is running|is on|uses|is at) (?:version |v(?=\\d))" },
  // "The latest version of X is 16": a bare number after a copula is a version only when the subject says so.
  {
    property: "version",
    verb: "(?<=(?:version|release|версия|релиз)(?:[^,;]{0,60}\\s)?)(?:is|is now|—|:) (?:version |v)?(?=\\d+(?:\\.\\d+)*(?![\\p{L}\\p{N}]))",
  },
  // owner: "X is owned by Y"; "Y bought X"
  { property: "owner", verb: "(?:is|was) (?:now )?owned by|belongs to|now belongs to" },
  {
    property: "owner",
    verb: "(?:was|has been|is) (?:now )?(?:sold|transferred) to|(?:was|has been) acquired by",
    change: true,
  },
  { property: "owner", verb: "(?:now owns|owns)", order: "value-verb-subject" },
  {
    property: "owner",
    verb: "(?:bought|acquired|has bought|has acquired|purchased|has purchased|took over|has taken over)",
    order: "value-verb-subject",
    change: true,
  },
  { property: "owner", verb: "(?:теперь )?принадлежит" },
  { property: "owner", verb: "(?:был[аои]? )?(?:продан[аоы]?|передан[аоы]?)", change: true },
  { property: "owner", verb: "(?:купил[аи]?|приобрел[аи]?|поглотил[аи]?)", order: "value-verb-subject", change: true },
  // relationship
  {
    property: "relationship",
    verb: "(?:is|was) (?:now )?married to|(?:married|has married|got married to)",
    state: "married",
  },
  { property: "relationship", verb: "(?:is|was) (?:now )?engaged to|got engaged to", state: "engaged" },
  {
    property: "relationship",
    verb: "is (?:now )?(?:dating|seeing)|is (?:now )?in a relationship with|started dating",
    state: "dating",
  },
  { property: "relationship", verb: "(?:got|has got|is getting|has gotten) divorced", change: true, value: "divorced" },
  {
    property: "relationship",
    verb: "(?:broke up with|has broken up with|split up with|split from|left)",
    change: true,
    value: "single",
  },
  { property: "relationship", verb: "(?:женат на|замужем за)", state: "married" },
  { property: "relationship", verb: "(?:встречается с|начал[аи]? встречаться с)", state: "dating" },
  { property: "relationship", verb: "(?:женился на|вышла замуж за)", change: true, state: "married" },
  { property: "relationship", verb: "(?:развел(?:ся|ась)|расстал(?:ся|ась))(?: с)?", change: true, value: "single" },
  { property: "relationship", verb: `${BE_NOW} (?:now )?(?=(?:${REL_EN})(?![\\p{L}]))` },
  { property: "relationship", verb: `(?:теперь |сейчас )?(?=(?:${REL_RU})(?![\\p{L}]))` },
  // status: "the status of X is Y", "X is now closed"
  { property: "status", verb: `${BE_NOW} (?:now )?(?:officially )?(?=(?:${STATUS_EN})(?![\\p{L}]))` },
  { property: "status", verb: `(?:[—–:-] )?(?:теперь |сейчас |уже )?(?=(?:${STATUS_RU})(?![\\p{L}]))` },
  // role: kept only when the value names an occupation or the verb appoints (claim.ts)
  {
    property: "role",
    verb: "(?:was|has been|got) (?:promoted|appointed|named|elected)(?: to| as)?|(?:became|has become|becomes)",
    change: true,
  },
  { property: "role", verb: "(?:назначен[аы]?|избран[аы]?|стал[аи]?|становится)", change: true },
  { property: "role", verb: "(?:works|worked|serves|served|is working) as|работает|работал[аи]?" },
  {
    property: "role",
    verb: "(?:is|was) (?:now )?(?:the |a |an |our |their |his |her )?(?=[\\p{L}-]+(?: [\\p{L}-]+){0,2} (?:of|at|for) )",
  },
  { property: "role", verb: "(?:is|was) (?:now )?(?:the |a |an |our |their |his |her )" },
  { property: "role", verb: "(?:является|являлся|являлась)" },
  // a switch: a new tool, a new employer
  {
    property: "uses",
    verb: "(?:uses|use|is using|am using|now uses|prefers|prefer|runs on|is running|использует|пользуется|пользуюсь|использую)",
  },
  {
    property: "switch",
    verb: "(?:switched|has switched|is switching|migrated|has migrated|changed|moved) (?:over )?(?:from [^,.;]+? )?to",
    change: true,
  },
  { property: "switch", verb: "(?:перешел|перешла|перешли) на", change: true },
  { property: "switch", verb: "(?:сменил[аи]?|поменял[аи]?)", change: true },
];

/** Occupations and offices (light stems; a value naming one is a role). Titles of one holder are in {@link OFFICES}. */
export const OCCUPATIONS: readonly string[] =
  "ceo cto cfo coo president chairman chairwoman chair director manager head lead leader founder cofounder co-founder engineer developer programmer designer analyst scientist researcher teacher professor lecturer student intern nurse doctor physician surgeon lawyer attorney accountant editor writer journalist counselor counsellor therapist architect officer minister mayor governor captain coach chef consultant principal dean rector secretary treasurer ambassador senator judge pilot artist musician owner partner assistant clerk cashier waiter driver volunteer worker employee member maintainer supervisor директор менеджер руководител глав начальник заведующ президент председател основател инженер разработчик программист дизайнер аналитик учен исследовател учител преподавател профессор студент стажер врач медсестр хирург юрист адвокат бухгалтер редактор писател журналист министр мэр губернатор капитан тренер повар консультант ректор декан секретар посол судья пилот художник музыкант владелец партнер ассистент помощник продавец водител волонтер сотрудник член".split(
    " ",
  );

/** Offices held by one person at a time in an organisation: a new holder supersedes the old one. */
export const OFFICES: readonly string[] =
  "ceo cto cfo coo president chairman chairwoman chair mayor governor rector dean principal директор президент председател мэр губернатор ректор декан".split(
    " ",
  );

/** A change stated: the value is new ("now", «теперь»). */
export const CHANGE_MARKERS =
  /(?<![\p{L}\p{N}])(?:now|nowadays|these days|currently|recently|as of now|new|no longer|anymore|any more|теперь|сейчас|ныне|недавно|больше не|уже не|новую|новой|новая|новое)(?![\p{L}\p{N}])/iu;
/** An ended state: "no longer", «больше не». */
export const ENDED_MARKERS =
  /(?<![\p{L}\p{N}])(?:no longer|not anymore|not any more|больше не|уже не)(?![\p{L}\p{N}])/iu;
/** An added value held alongside the old one. */
export const ADDITIVE_MARKERS =
  /(?<![\p{L}\p{N}])(?:also|too|as well|in addition|additionally|besides|another|second job|side job|part[- ]time|on the side|simultaneously|также|тоже|еще и|кроме того|вдобавок|помимо|по совместительству|параллельно|одновременно)(?![\p{L}\p{N}])/iu;
/** A past state told as such. */
export const PAST_MARKERS =
  /(?<![\p{L}\p{N}])(?:used to|previously|formerly|once|back then|years ago|in the past|earlier|before that|at the time|раньше|прежде|когда-то|ранее|в прошлом|до этого|тогда|бывш\p{L}*)(?![\p{L}\p{N}])/iu;
/** A negation (not a "no longer", which {@link ENDED_MARKERS} reads). */
export const NEGATION =
  /(?<![\p{L}\p{N}])(?:not|never|doesn't|isn't|wasn't|didn't|don't|не|никогда|нет)(?![\p{L}\p{N}])/iu;

/** Pronouns naming the speaker: two of them are one subject. Other pronouns name nobody certain. */
export const SPEAKER = new Set(["i", "я", "we", "мы"]);
/** Pronouns that name nobody certain: no subject. */
export const PRONOUNS = new Set([
  "he",
  "she",
  "they",
  "it",
  "you",
  "this",
  "that",
  "он",
  "она",
  "они",
  "оно",
  "ты",
  "вы",
  "это",
]);
/** Words dropped around a subject or a value (adverbs of time and degree, articles, markers). */
export const FRAME_WORDS = new Set(
  "now longer anymore больше currently recently still also too already finally officially just then today nowadays the a an his her their its our my your new old another теперь сейчас также тоже еще уже недавно наконец официально всё все свою свой своей своего новую новый новой новое его ее их наш мой".split(
    " ",
  ),
);
