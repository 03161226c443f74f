//! The statistics in words, in English, Portuguese and Spanish: what each
//! test saw, what it concludes, and the smallest bias it would have caught at
//! this size; below the size where a test can say anything, that it cannot
//! yet judge and how many observations it needs. The text report and the
//! HTML report of `fairseed audit` say these sentences.

use crate::cells::{Uniformity, POWER};
use crate::rtp::RtpSummary;

/// A language of the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lang {
    /// English.
    #[default]
    En = 0,
    /// Portuguese.
    Pt,
    /// Spanish.
    Es,
}

impl Lang {
    /// `en`, `pt` or `es`.
    pub fn parse(code: &str) -> Result<Self, String> {
        match code {
            "en" => Ok(Self::En),
            "pt" => Ok(Self::Pt),
            "es" => Ok(Self::Es),
            _ => Err(format!("lang: {code:?} is not one of en, pt, es")),
        }
    }

    /// The language's code, for `<html lang>`.
    pub fn code(self) -> &'static str {
        match self {
            Self::En => "en",
            Self::Pt => "pt",
            Self::Es => "es",
        }
    }

    /// One of three texts.
    fn pick(self, en: String, pt: String, es: String) -> String {
        match self {
            Self::En => en,
            Self::Pt => pt,
            Self::Es => es,
        }
    }

    /// A number as written in the language: a decimal comma in Portuguese and Spanish.
    fn num(self, text: String) -> String {
        match self {
            Self::En => text,
            Self::Pt | Self::Es => text.replace('.', ","),
        }
    }
}

/// The section headings: dice rolls, cards, return to player.
pub fn headings(lang: Lang) -> [&'static str; 3] {
    match lang {
        Lang::En => ["Dice rolls", "Cards", "Return to player"],
        Lang::Pt => ["Rolagens de dados", "Cartas", "Retorno ao jogador"],
        Lang::Es => ["Tiradas de dados", "Cartas", "Retorno al jugador"],
    }
}

/// One cell test's sentences, in English, Portuguese and Spanish, with
/// `{n}`, `{min}`, `{most}`, `{least}`, `{e}`, `{p}`, `{f}` and `{times}` to fill.
struct CellWords {
    too_few: [&'static str; 3],
    seen: [&'static str; 3],
    power: [&'static str; 3],
}

const ROLLS: CellWords = CellWords {
    too_few: [
        "too few rolls to judge uniformity: {n}; at least {min} needed",
        "poucas rolagens para julgar a uniformidade: {n}; são necessárias pelo menos {min}",
        "muy pocas tiradas para juzgar la uniformidad: {n}; se necesitan al menos {min}",
    ],
    seen: [
        "{n} rolls in 100 ranges of 1 %: the fullest holds {most}, the emptiest {least}, {e} expected in each; p = {p}.",
        "{n} rolagens em 100 faixas de 1 %: a mais cheia tem {most}, a mais vazia {least}, {e} esperadas em cada; p = {p}.",
        "{n} tiradas en 100 rangos del 1 %: el más lleno tiene {most}, el más vacío {least}, {e} esperadas en cada uno; p = {p}.",
    ],
    power: [
        "At this size one range {f} times as likely as each other is caught {times}.",
        "Com este tamanho, uma faixa {f} vezes mais provável que cada outra é detectada {times}.",
        "Con este tamaño, un rango {f} veces más probable que cada otro se detecta {times}.",
    ],
};

const CARDS: CellWords = CellWords {
    too_few: [
        "too few deals to judge card positions: {n}; at least {min} needed",
        "poucas distribuições para julgar as posições das cartas: {n}; são necessárias pelo menos {min}",
        "muy pocos repartos para juzgar las posiciones de las cartas: {n}; se necesitan al menos {min}",
    ],
    seen: [
        "{n} deals, 52 positions × 52 cards: a card at a position at most {most} times, at least {least}, {e} expected; p = {p}.",
        "{n} distribuições, 52 posições × 52 cartas: uma carta numa posição no máximo {most} vezes, no mínimo {least}, {e} esperadas; p = {p}.",
        "{n} repartos, 52 posiciones × 52 cartas: una carta en una posición como máximo {most} veces, como mínimo {least}, {e} esperadas; p = {p}.",
    ],
    power: [
        "At this size one card {f} times as likely at one position is caught {times}.",
        "Com este tamanho, uma carta {f} vezes mais provável numa posição é detectada {times}.",
        "Con este tamaño, una carta {f} veces más probable en una posición se detecta {times}.",
    ],
};

/// The dice rolls' test in words.
pub fn rolls(lang: Lang, u: &Uniformity) -> String {
    cell_test(lang, u, &ROLLS)
}

/// The card position × card test in words.
pub fn cards(lang: Lang, u: &Uniformity) -> String {
    cell_test(lang, u, &CARDS)
}

fn cell_test(lang: Lang, u: &Uniformity, words: &CellWords) -> String {
    let i = lang as usize;
    let (n, min) = (u.n.to_string(), u.min_n.to_string());
    let Some(p) = u.p else {
        return fill(words.too_few[i], &[("n", &n), ("min", &min)]);
    };
    let values = [
        ("n", n.as_str()),
        ("most", &u.most.to_string()),
        ("least", &u.least.to_string()),
        ("e", &lang.num(format!("{:.1}", u.expected))),
        ("p", &pval(lang, p)),
        ("f", &factor(lang, u)),
        ("times", &nine_in_ten(lang)),
    ];
    let seen = fill(words.seen[i], &values);
    let power = fill(words.power[i], &values);
    format!("{seen} {} {power}", verdict(lang, u.alarming()))
}

/// `template` with each `{key}` replaced by its value.
fn fill(template: &str, values: &[(&str, &str)]) -> String {
    values
        .iter()
        .fold(template.to_owned(), |text, (key, value)| {
            text.replace(&format!("{{{key}}}"), value)
        })
}

/// The return to player in words.
pub fn rtp(lang: Lang, r: &RtpSummary) -> String {
    let bets = r.bets;
    let (Some(mean), Some(rules), Some(p), Some(gap)) = (r.mean, r.theoretical, r.p, r.alarm_gap)
    else {
        return lang.pick(
            format!("too few bets to judge the return to player: {bets}"),
            format!("poucas apostas para julgar o retorno ao jogador: {bets}"),
            format!("muy pocas apuestas para juzgar el retorno al jugador: {bets}"),
        );
    };
    let (mean, rules) = (
        lang.num(format!("{mean:.4}")),
        lang.num(format!("{rules:.4}")),
    );
    let (gap, p) = (lang.num(format!("{gap:.4}")), pval(lang, p));
    let seen = lang.pick(
        format!("{bets} bets: mean return {mean} per bet; the rules give {rules}."),
        format!("{bets} apostas: retorno médio {mean} por aposta; as regras dão {rules}."),
        format!("{bets} apuestas: retorno medio {mean} por apuesta; las reglas dan {rules}."),
    );
    let interval = match (r.ci99, r.consistent, r.bets_needed) {
        (Some((lo, hi)), Some(ok), _) => {
            let (lo, hi) = (lang.num(format!("{lo:.4}")), lang.num(format!("{hi:.4}")));
            let fits = match (lang, ok) {
                (Lang::En, true) => "the rules' value is inside it",
                (Lang::En, false) => "the rules' value is NOT inside it",
                (Lang::Pt, true) => "o valor das regras está dentro dele",
                (Lang::Pt, false) => "o valor das regras NÃO está dentro dele",
                (Lang::Es, true) => "el valor de las reglas está dentro",
                (Lang::Es, false) => "el valor de las reglas NO está dentro",
            };
            lang.pick(
                format!("99 % interval {lo} to {hi}: {fits}."),
                format!("Intervalo de 99 % de {lo} a {hi}: {fits}."),
                format!("Intervalo del 99 % de {lo} a {hi}: {fits}."),
            )
        }
        (_, _, Some(needed)) => lang.pick(
            format!("too few bets for a 99 % interval: {bets}; about {needed} of the same mix needed."),
            format!("poucas apostas para um intervalo de 99 %: {bets}; são necessárias cerca de {needed} da mesma mistura."),
            format!("muy pocas apuestas para un intervalo del 99 %: {bets}; se necesitan unas {needed} de la misma mezcla."),
        ),
        _ => String::new(),
    };
    let alarm = lang.pick(
        format!("A mean more than {gap} from the rules' raises the alarm; p = {p}."),
        format!("Uma média a mais de {gap} da das regras dá o alarme; p = {p}."),
        format!("Una media a más de {gap} de la de las reglas da la alarma; p = {p}."),
    );
    let chips = match (r.by_chips, r.theoretical_by_chips) {
        (Some(got), Some(rules)) => {
            let (got, rules) = (
                lang.num(format!("{got:.4}")),
                lang.num(format!("{rules:.4}")),
            );
            lang.pick(
                format!(" By chips, paid / staked {got}; the rules give {rules}."),
                format!(" Em fichas, pago / apostado {got}; as regras dão {rules}."),
                format!(" En fichas, pagado / apostado {got}; las reglas dan {rules}."),
            )
        }
        _ => String::new(),
    };
    format!("{seen} {interval} {alarm}{chips}")
}

fn verdict(lang: Lang, alarming: bool) -> &'static str {
    match (lang, alarming) {
        (Lang::En, false) => "No sign of bias.",
        (Lang::En, true) => "NOT uniform.",
        (Lang::Pt, false) => "Nenhum sinal de viés.",
        (Lang::Pt, true) => "NÃO uniforme.",
        (Lang::Es, false) => "Ningún indicio de sesgo.",
        (Lang::Es, true) => "NO uniforme.",
    }
}

fn nine_in_ten(lang: Lang) -> String {
    let tenths = (POWER * 10.0).round();
    lang.pick(
        format!("{tenths} times in 10"),
        format!("{tenths} vezes em 10"),
        format!("{tenths} veces de cada 10"),
    )
}

/// The power's factor: two decimals below 100, whole above.
fn factor(lang: Lang, u: &Uniformity) -> String {
    match u.power_factor {
        Some(f) if f < 100.0 => lang.num(format!("{f:.2}")),
        Some(f) if f.is_finite() => format!("{f:.0}"),
        _ => "∞".to_owned(),
    }
}

fn pval(lang: Lang, p: f64) -> String {
    lang.num(if p < 1e-3 {
        format!("{p:.2e}")
    } else {
        format!("{p:.3}")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cells::CellTest;

    #[test]
    fn below_the_smallest_size_each_language_says_too_few() {
        let u = CellTest::ROLLS.judge(4, &[4]);
        assert_eq!(
            rolls(Lang::En, &u),
            "too few rolls to judge uniformity: 4; at least 5 needed"
        );
        assert_eq!(
            rolls(Lang::Pt, &u),
            "poucas rolagens para julgar a uniformidade: 4; são necessárias pelo menos 5"
        );
        assert_eq!(
            rolls(Lang::Es, &u),
            "muy pocas tiradas para juzgar la uniformidad: 4; se necesitan al menos 5"
        );
        let d = CellTest::CARDS.judge(2, &[2]);
        assert!(cards(Lang::Pt, &d).starts_with("poucas distribuições"));
        assert!(cards(Lang::Es, &d).ends_with("al menos 6"));
    }

    #[test]
    fn a_judged_test_gives_its_power() {
        let counts = [10u64; 100];
        let u = CellTest::ROLLS.judge(1000, &counts);
        let en = rolls(Lang::En, &u);
        assert!(en.contains("No sign of bias."), "{en}");
        assert!(en.contains("caught 9 times in 10"), "{en}");
        assert!(rolls(Lang::Pt, &u).contains("9 vezes em 10"));
        assert!(rolls(Lang::Es, &u).contains("p = 1,000"));
    }

    #[test]
    fn the_language_is_parsed_or_named_in_the_error() {
        assert_eq!(Lang::parse("pt"), Ok(Lang::Pt));
        assert_eq!(
            Lang::parse("fr"),
            Err("lang: \"fr\" is not one of en, pt, es".to_owned())
        );
    }
}
