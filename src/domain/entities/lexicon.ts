/**
 * Word lists of the heuristic mention extractor (domain/entities/mentions.ts): honorifics, organisation and
 * software cues, place prepositions, capitalised words that are not names, and small gazetteers of first names and
 * places. Lists are lower case with ё written as е; they cue a kind, they never decide a name alone.
 */

const set = (words: string): ReadonlySet<string> => new Set(words.trim().split(/\s+/u));

/** Honorifics and titles written before a name, with or without a dot ("Mr.", "Dr", «доктор», «г-н»). */
export const TITLES: ReadonlySet<string> = set(`
mr mrs ms miss mx dr doctor prof professor sir madam madame lady lord dame rev reverend father mother sister brother
captain capt colonel col general gen major lieutenant lt sergeant sgt officer detective inspector judge justice
president senator governor mayor minister king queen prince princess duke duchess count countess baron emperor
master mister uncle aunt auntie grandma grandpa st saint
доктор профессор господин госпожа г-н г-жа товарищ сударь сударыня барин барыня князь княгиня граф графиня
генерал полковник капитан майор поручик фельдшер священник отец батюшка матушка дядя тетя тетушка царь царица
академик инженер директор смотритель старик старуха мадам месье пан пани`);

/** Titles that are ordinary words at a sentence start or alone and so need a capitalised name right after. */
export const WEAK_TITLES: ReadonlySet<string> = set(`
father mother sister brother master uncle aunt auntie grandma grandpa king queen father мать отец старик старуха
дядя тетя тетушка батюшка матушка директор смотритель инженер`);

/** Words after a name that make it an organisation ("Acme Inc", "Tokyo University"). */
export const ORG_SUFFIXES: ReadonlySet<string> = set(`
inc inc. ltd ltd. llc llp plc corp corp. corporation company co co. gmbh ag sa university college institute
school academy foundation association society bank agency ministry department committee council commission
group holdings labs laboratory laboratories team club union federation organization organisation press
publishing hospital church museum library foundation network fund consortium assembly nations observatory
parliament congress senate court office bureau party`);

/** Last words that make a name a work: a licence, a treaty, a declaration ("Mozilla Public License"). */
export const WORK_SUFFIXES: ReadonlySet<string> = set(`license licence manifesto treaty declaration constitution
charter`);

/** Russian generic nouns before a place's name («полигона Байконур», «город Тверь», «реки Волги»). */
export const RU_PLACE_HEADS: ReadonlySet<string> = set(`город полигон село деревня поселок улица проспект река
озеро гора остров область край губерния уезд район станция космодром порт залив море хребет`);

/** Words before a name that make it an organisation ("University of Tokyo", «компания «Ромашка»»). */
export const ORG_PREFIXES: ReadonlySet<string> = set(`
university college institute school academy bank ministry department museum
ооо оао зао пао ао нко ип компания фирма корпорация банк университет институт академия министерство
фонд издательство завод фабрика концерн холдинг журнал газета`);

/** Words after a name that make it software ("React library", "Bun runtime"). */
export const SOFTWARE_CUES: ReadonlySet<string> = set(`
library framework package runtime engine browser compiler toolchain toolkit sdk api plugin extension driver
database server app application editor interpreter distribution distro kernel os module crate gem image
библиотека фреймворк пакет движок браузер компилятор сервер приложение`);

/** Words after a name that make it a place ("Hudson River", "Baker Street"). */
export const PLACE_SUFFIXES: ReadonlySet<string> = set(`
city town village county province prefecture state river lake sea ocean mountain mountains mount island islands
bay street st. avenue ave road square park valley desert bridge station airport castle temple shrine hill hills
amphitheatre theatre theater stadium arena hall inn hotel studios zoo beach harbor harbour port forest coast
canyon falls peninsula gulf strait tower cliffs bridge mall market plaza`);

/** Last words that make a name a project or a recurring programme ("Mozilla Festival", "Berlin Bed Rest Study"). */
export const PROJECT_SUFFIXES: ReadonlySet<string> = set(`project festival study conference summit programme program
initiative challenge campaign expedition mission`);

/** Words right after a name that make it a work ("a Harry Potter movie", "the Witcher series"). */
export const WORK_AFTER: ReadonlySet<string> = set(`movie movies film films book books series novel novels universe
saga franchise trilogy album albums song songs show shows episode episodes fandom`);

/** Prepositions that often introduce a place ("in Tokyo", «в Москве», «из Петербурга»). */
export const PLACE_PREPOSITIONS: ReadonlySet<string> = set(`
in at from to near into through across toward towards outside inside
в во из на под около возле близ до через`);

/** Words before a quoted name that make it a work ("the novel "Botchan"", «рассказ «Палата № 6»»). */
export const WORK_CUES: ReadonlySet<string> = set(`
book novel story poem film movie song album play article paper essay series show painting novella magazine
книга роман рассказ повесть поэма стихотворение фильм песня альбом пьеса статья сериал картина очерк сборник`);

/** Words before a quoted or capitalised name that make it a project ("project Apollo", «проект «Север»»). */
export const PROJECT_CUES: ReadonlySet<string> = set(
  `project initiative programme program проект программа инициатива`,
);

/**
 * Capitalised words that are not names by themselves: pronouns, interjections, adverbs and connectives that open a
 * sentence, calendar words, nationalities and languages (not entities in this model), and frequent common nouns.
 */
export const NOT_NAMES: ReadonlySet<string> = set(`
i i'm i've i'll i'd yes no oh ah well yet still however also then now today yesterday tomorrow tonight perhaps maybe
please thanks thank hi hello hey wow sure sorry great good nice cool awesome let let's last next first second third
one two three every many much most some although though since unless whether even just really actually anyway
besides instead meanwhile otherwise therefore thus hence indeed soon later finally after before again already
moreover furthermore nevertheless nonetheless overall likewise afterwards altogether regardless elsewhere together
consequently additionally alternatively ultimately lastly initially unfortunately fortunately
anything everything something nothing everyone someone anyone nobody everybody somebody here there this that these
those what which who whom whose where when why how while once because if so and but or nor for as at by in on of to
with from up out off the a an over under into onto about above below than too very not never always often sometimes usually
god lord heaven ok okay yeah yep nope hmm ha haha lol omg dear true false note see chapter section part figure table
fig vol page mon tue wed thu fri sat sun monday tuesday wednesday thursday friday saturday sunday january february
march april may june july august september october november december christmas easter internet web email online website
plus anyways anyhow go bye goodbye woah whoa congrats congratulations woohoo yay aww aw yo anytime glad remember welcome cheers hooray
oops ugh yikes phew tues thurs thanksgiving halloween hanukkah ramadan diwali
without within thereupon whereupon upon among toward towards across behind beyond despite except unlike
my your our their his her its we you he she it they me us him them i'm i've i'll i'd you're we're they're it's
version versions bug bugs issue issues release releases update updates
footnote footnotes contents introduction conclusion abstract summary references appendix preface index
discussion results methods background acknowledgements acknowledgments participants materials reply release
licensing reporting highlights overview prerequisites installation usage keywords title author translator editor
да нет ну вот как что это он она они оно мы вы ты я его ее их ему ей им но и а или если когда где куда зачем почему
теперь потом затем тогда сейчас здесь там тут уже еще даже только ведь же вдруг впрочем конечно наконец однако
итак значит вероятно наверное может пожалуй кстати правда хорошо ладно спасибо здравствуйте извините простите
господи боже эх ах ох увы совершенно совсем вообще иногда никогда всегда однажды утром вечером ночью днем
глава часть раздел рисунок таблица примечание примечания содержание введение заключение аннотация литература`);

/** Frequent first names (nominative), English and Russian: a sentence-initial name is kept when it is one of them. */
export const FIRST_NAMES: ReadonlySet<string> = set(`
john james robert michael william david richard joseph thomas charles christopher daniel matthew anthony mark
paul steven andrew kenneth joshua kevin brian george edward ronald timothy jason jeffrey ryan jacob gary
nicholas eric jonathan stephen larry justin scott brandon benjamin samuel frank gregory raymond alexander patrick
jack dennis jerry tyler aaron henry adam peter nathan zachary douglas harold kyle carl arthur gerald roger
keith jeremy terry lawrence sean christian albert joe ethan austin jesse willie billy bruce bryan ralph roy
jordan eugene wayne louis alan juan gabriel logan randy vincent russell elijah bobby philip johnny tom bob bill
mary patricia jennifer linda elizabeth barbara susan jessica sarah karen nancy lisa betty margaret sandra
ashley kimberly emily donna michelle dorothy carol amanda melissa deborah stephanie rebecca sharon laura cynthia
kathleen amy shirley angela helen anna brenda pamela nicole emma samantha katherine christine debra rachel
catherine carolyn janet ruth maria heather diane virginia julie joyce victoria olivia kelly christina lauren
joan evelyn judith megan cheryl andrea hannah martha jacqueline frances gloria ann teresa kathryn sara janice
jean alice madison doris abigail julia judy grace denise amber marilyn beverly danielle theresa sophia marie
diana brittany natalie isabella charlotte rose alexis kayla caroline melanie jon joanna audrey nate tim gina
deborah evan john kate mel calvin dave
александр алексей анатолий андрей антон аркадий борис вадим валентин валерий василий виктор виталий владимир
владислав всеволод вячеслав геннадий георгий глеб григорий даниил денис дмитрий евгений егор иван игорь илья
кирилл константин лев леонид максим матвей михаил никита николай олег павел петр роман семен сергей степан
тимофей федор юрий ярослав аверьян ефим моисей мойсей афанасий порфирий фома яков захар тихон
марк карл станислав эдуард арсений богдан
александра алина алла анастасия анна антонина валентина валерия вера виктория галина дарья евгения екатерина
елена елизавета жанна зинаида зоя инна ирина кира ксения лариса лидия любовь людмила маргарита марина мария
надежда наталья нина оксана ольга полина раиса светлана софья тамара татьяна ульяна юлия яна авдотья
ваня маша саша петя коля миша дуня катя таня оля наташа лена света вася федя гриша паша сережа алеша володя дима
женя митя надя соня аня настя юля ира люба аннушка марьюшка даша`);

/**
 * Frequent English surnames (the most common in the US census) that are also everyday words: a lone capitalised
 * "Smith" or "Brown" is kept as a name although the common-word list knows it (see common-words.ts).
 */
export const SURNAMES_AS_WORDS: ReadonlySet<string> = set(`
ball banks bass bell bishop black bridges brown burns bush chase cook cross curry farmer frank fuller gates golden
grant green hall hardy hill horn hunt king knight lane manning park parks pope porter ray rice rose sharp smith
stone wade wall ward waters white wolf wood woods young`);

/**
 * Capitalised acronyms that are ordinary words or formats rather than named things ("OK", "PDF", "API"), and the
 * severity words log lines open with ("INFO", "WARN", "ERROR": syslog's severities, RFC 5424 §6.2.1, and the levels
 * of log4j/SLF4J and Python's logging) — a 20 MB log otherwise made ≈ 800,000 mentions of four "entities".
 */
export const COMMON_ACRONYMS: ReadonlySet<string> = set(`
trace debug info informational notice warn warning err error crit critical fatal alert emerg emergency severe
ok tv pdf html css api cli url uri usb dna rna id faq diy lgbt lgbtq lgbtq+ ceo cto cfo phd mba bbq asap fyi
ai ml gpu cpu ram ssd os ui ux sql json xml http https tcp ip dns ssh gpg apt rpm deb cd dvd pc mr dr vs etc
am pm gmt abi wasm eof sdk vr pr btw imo tbh idk rpg fps mmo utc bc ad ii iii iv vi vii viii ix xi xii`);

/**
 * True when `word` (lower case) is in `cues`, or is an inflected form of one: an English plural, or a Russian word
 * sharing all but the cue's last letter and at most two more letters («компании», «романе» for «компания», «роман»).
 */
export function hasCue(cues: ReadonlySet<string>, word: string): boolean {
  if (cues.has(word) || (word.endsWith("s") && cues.has(word.slice(0, -1)))) return true;
  if (!/\p{Script=Cyrillic}/u.test(word)) return false;
  for (const cue of cues) {
    if (cue.length >= 4 && word.length <= cue.length + 2 && word.startsWith(cue.slice(0, -1))) return true;
  }
  return false;
}

/** Section headings that web and PDF text glue to the next sentence ("Discussion Surgery, radiotherapy …"). */
export const HEADING_WORDS: ReadonlySet<string> = set(`footnote contents introduction conclusion conclusions abstract
summary references appendix preface discussion results methods background acknowledgements acknowledgments
participants materials reply release licensing reporting highlights overview prerequisites installation usage
keywords`);

/**
 * Nationalities, languages, religions, compass and party adjectives: no entity alone ("the Republican candidate"),
 * but they open a name ("European Space Agency", "Republican Party").
 */
export const DEMONYMS: ReadonlySet<string> = set(`
english japanese chinese russian french german american british european asian african spanish italian korean
indian latin greek western eastern northern southern national international united royal central irish scottish
welsh canadian mexican brazilian australian swedish norwegian danish dutch polish ukrainian turkish arabic hebrew
persian thai vietnamese indonesian filipino portuguese egyptian israeli iranian midwestern catholic protestant
christian muslim jewish buddhist hindu republican democratic democrat socialist communist`);

/** First words that make a run an institution's name ("Organisation for …", "Institute of …"). */
export const INSTITUTION_HEADS: ReadonlySet<string> = new Set(
  "organisation organization institute institution center centre society association agency ministry department council commission foundation office bureau school museum federation union league committee academy university college".split(
    " ",
  ),
);

/**
 * Verbs that open a call to action or an instruction before a name ("Visit Mozilla …", "Install Docker Engine",
 * "Ask Tom"): at a sentence's start they are imperatives, never the first word of the name after them.
 */
export const IMPERATIVES: ReadonlySet<string> = set(`
visit read see get learn download install click follow join sign try use contact check find explore support donate
subscribe share watch ask call email tell thank open run build start stop enable disable update upgrade remove
configure choose select go tap press type enter
посетите читайте смотрите скачайте установите используйте спросите позвоните напишите`);
