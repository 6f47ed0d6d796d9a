/**
 * Stop words of the Snowball project (snowballstem.org, BSD-3-Clause), the lists that PostgreSQL ships as
 * english.stop and russian.stop: the local embedder skips them, as PostgreSQL full-text search does.
 */

/** English Snowball stop words. */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(
  `i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her
hers herself it its itself they them their theirs themselves what which who whom this that these
those am is are was were be been being have has had having do does did doing a an the and but if or
because as until while of at by for with about against between into through during before after
above below to from up down in out on off over under again further then once here there when where
why how all any both each few more most other some such no nor not only own same so than too very s
t can will just don should now`.split(/\s+/),
);

/** Russian Snowball stop words (ё written as е, as the embedder folds it). */
export const RUSSIAN_STOP_WORDS: ReadonlySet<string> = new Set(
  `и в во не что он на я с со как а то все она так его но да
ты к у же вы за бы по только ее мне было вот от меня еще
нет о из ему теперь когда даже ну вдруг ли если уже или
ни быть был него до вас нибудь опять уж вам ведь там
потом себя ничего ей может они тут где есть надо ней
для мы тебя их чем была сам чтоб без будто чего раз
тоже себе под будет ж тогда кто этот того потому этого
какой совсем ним здесь этом один почти мой тем чтобы
нее сейчас были куда зачем всех никогда можно при
наконец два об другой хоть после над больше тот через
эти нас про всего них какая много разве три эту моя
впрочем хорошо свою этой перед иногда лучше чуть том
нельзя такой им более всегда конечно всю между`.split(/\s+/),
);

/**
 * Question and pointing words that the Snowball lists above leave out: the other case forms of the pronouns they
 * hold one form of (какой and какая but not каких, этот but not этих, такой but not такие), the whole paradigms of
 * который, каков and чей, the adverbs сколько, почему, откуда, отчего (the list has когда, где, куда, зачем), and
 * English "whose". PostgreSQL's Snowball stemmer folds these to stems such as «как», «так», «котор», so a question
 * («В каком округе…», «Через какие два органа…») matched every passage that happens to hold another form of the
 * same pronoun. Only the lexical leg of a search leaves them out of its query (domain/lexical-query.ts); stored
 * search vectors, the embedder and the meaning rules keep the Snowball lists unchanged.
 */
export const QUESTION_WORD_FORMS: ReadonlySet<string> = new Set(
  `какого какому каким каком какую какое какие каких какими каков какова каково каковы
чей чья чье чьи чью чьего чьей чьему чьим чьих чьими
который которого которому которым котором которая которой которую которое которые которых которыми
сколько скольких скольким почему откуда отчего
это эта этим этих этими
такого такому таким таком такая такую такое такие таких такими
whose`.split(/\s+/),
);
