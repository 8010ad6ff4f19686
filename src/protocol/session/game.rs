//! The commands that set up and edit the session's game: gaps, position,
//! move, undo, moves.

use super::{Answer, Session, State, fail};
use crate::protocol::command::Setup;
use crate::protocol::reply::{Done, ErrorCode, Refusal, Reply};
use crate::protocol::variant_ini;
use crate::rules::{Game, Gaps, Move, Position, RuleSet, parse_move, san};

impl Session {
    pub(super) fn choose_gaps(&mut self, gaps: Gaps) -> Answer {
        let rules = self.rules();
        if !rules.has_gaps() {
            return Err(fail(
                ErrorCode::WrongState,
                format!("{} has no gaps", rules.name()),
            ));
        }
        if let State::Playing(g) = &self.state
            && (!g.moves().is_empty() || g.gaps().is_none())
        {
            return Err(fail(
                ErrorCode::WrongState,
                "gaps are chosen before the first move of a game from the start (newgame to begin again)",
            ));
        }
        self.start_game(gaps)?;
        Ok(vec![Done::Gaps(gaps).into()])
    }

    pub(super) fn start_game(&mut self, gaps: Gaps) -> Result<(), Refusal> {
        let start = Position::start(self.rules(), Some(gaps))
            .map_err(|e| fail(ErrorCode::BadArgument, e.to_string()))?;
        self.state = State::Playing(Game::new(start, Some(gaps)));
        self.first_move_number = 1;
        Ok(())
    }

    /// Sets up a position and plays `moves` from it, all or nothing. A
    /// refused one leaves no position (see [`State::Refused`]).
    pub(super) fn position(&mut self, setup: Setup, moves: &[String]) -> Answer {
        let reply = self.set_position(setup, moves);
        if let Err(e) = &reply {
            self.state = State::Refused(self.rules(), e.detail.clone());
        }
        reply
    }

    fn set_position(&mut self, setup: Setup, moves: &[String]) -> Answer {
        let rules = self.rules();
        let mut first_move_number = 1;
        let mut game = match setup {
            Setup::StartPos(gaps) => match (
                rules.has_gaps(),
                gaps.or(self.gaps_option.filter(|_| rules.has_gaps())),
            ) {
                // A variant tool that names no gaps means the variant's
                // start as Fairy-Stockfish defines it: the shipped ini's.
                (true, None) if self.fairy_variant && rules == RuleSet::PAWNRACE => {
                    let (start, gaps) = variant_ini::start();
                    Game::new(start, Some(gaps))
                }
                (true, None) => {
                    if !moves.is_empty() {
                        return Err(fail(
                            ErrorCode::BadArgument,
                            "moves from the start need gaps: position startpos gaps AH moves ...",
                        ));
                    }
                    self.state = State::AwaitingGaps(rules);
                    return Ok(vec![
                        Done::PositionAwaitingGaps {
                            rules: rules.name(),
                        }
                        .into(),
                    ]);
                }
                (_, gaps) => {
                    let start = Position::start(rules, gaps)
                        .map_err(|e| fail(ErrorCode::BadArgument, e.to_string()))?;
                    Game::new(start, gaps)
                }
            },
            Setup::Fen(text) => {
                let pos = Position::from_fen(&text, rules)
                    .map_err(|e| fail(ErrorCode::BadPosition, e.to_string()))?;
                // Six fields: the move number is the last.
                if let [_, _, _, _, _, number] = text.split_whitespace().collect::<Vec<_>>()[..] {
                    first_move_number = number.parse().unwrap_or(1).max(1);
                }
                Game::new(pos, None)
            }
        };
        for (i, text) in moves.iter().enumerate() {
            let m = legal_move(game.position(), text).map_err(|e| Refusal {
                code: e.code,
                detail: format!("move {} ({text}): {}", i + 1, e.detail),
            })?;
            game.play(m);
        }
        self.first_move_number = first_move_number;
        let fen = self.fen_of(&game);
        self.state = State::Playing(game);
        Ok(vec![Done::Position { fen }.into()])
    }

    pub(super) fn play(&mut self, text: &str) -> Answer {
        let game = self.game_mut()?;
        let m = legal_move(game.position(), text)?;
        game.play(m);
        Ok(vec![move_reply(m, game)])
    }

    pub(super) fn undo(&mut self) -> Answer {
        let game = self.game_mut()?;
        let m = game
            .undo()
            .ok_or_else(|| fail(ErrorCode::WrongState, "no move to take back"))?;
        Ok(vec![
            Done::Undo {
                taken: Some((m.to_string(), san(m))),
            }
            .into(),
        ])
    }

    pub(super) fn moves(&self) -> Answer {
        let mut legal = self.game()?.position().legal_moves();
        legal.as_mut_slice().sort_by_key(|m| file_order(*m));
        let mut lines: Vec<Reply> = legal
            .iter()
            .map(|m| Reply::Move {
                mv: m.to_string(),
                san: Some(san(*m)),
            })
            .collect();
        lines.push(Done::Moves(legal.len()).into());
        Ok(lines)
    }
}

/// Reads `text` as a move in `pos`, with the protocol's error codes.
pub(super) fn legal_move(pos: &Position, text: &str) -> Result<Move, Refusal> {
    if let Some(o) = pos.outcome() {
        return Err(fail(ErrorCode::GameOver, format!("the game is over: {o}")));
    }
    parse_move(pos, text).map_err(|e| match e {
        crate::rules::MoveError::Malformed(d) => fail(ErrorCode::BadArgument, d),
        crate::rules::MoveError::Illegal(d) => fail(ErrorCode::IllegalMove, d),
    })
}

/// `ok move e2e4 san e4`, with ` result ...` when the move ended the game.
fn move_reply(m: Move, game: &Game) -> Reply {
    Done::Move {
        mv: m.to_string(),
        san: Some(san(m)),
        result: game
            .outcome()
            .map(|o| format!("{} {}", o.result_word(), o.reason_tokens())),
    }
    .into()
}

/// Move lists read file by file, a to h, as people scan a board.
pub(super) fn file_order(m: Move) -> (u8, u8, u8, u8) {
    (m.from.file(), m.from.rank(), m.to.file(), m.to.rank())
}
