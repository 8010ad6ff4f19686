//! `pawnrace book` and `book-merge`: growing a book file and merging it
//! into the compiled-in book.

use crate::{common, pawnrace};

/// `pawnrace book-merge <options> --out <book> <file>`.
fn book_merge(
    options: &[&str],
    book: &std::path::Path,
    file: &std::path::Path,
) -> (bool, String, String) {
    let mut args = vec!["book-merge"];
    args.extend_from_slice(options);
    args.extend(["--out", book.to_str().unwrap(), file.to_str().unwrap()]);
    pawnrace(&args)
}

#[test]
fn book_grows_a_file_and_names_what_it_could_not_prove() {
    let dir = common::temp_dir("book");
    let out = dir.join("book.txt");
    let out_arg = out.to_str().unwrap();
    // Far too small a budget for positions one ply into an opening.
    let (ok, _, err) = pawnrace(&[
        "book", "--gaps", "AF", "--plies", "1", "--nodes", "1000", "--hash", "1", "--out", out_arg,
    ]);
    assert!(ok, "{err}");
    assert!(err.contains("not proven within the budget"), "{err}");
    assert!(err.contains("0 positions proven"), "{err}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.contains("# run: pawnrace book --gaps AF --plies 1 --side black --nodes 1000"),
        "{text}"
    );
    // Reading the tables, a position they prove in full (black's answer
    // to h2h4, one ply in, is in the book) is taken from them, not proven
    // again within the tiny budget, nor written.
    let (ok, _, err) = pawnrace(&[
        "book", "--gaps", "AF", "--after", "h2h4", "--plies", "0", "--side", "black", "--nodes",
        "1000", "--hash", "1", "--tables", "--out", out_arg,
    ]);
    assert!(ok, "{err}");
    assert!(
        err.contains("8/ppppp1pp/8/8/7P/8/1PPPPPP1/8 b -: proven in the tables already"),
        "{err}"
    );
    assert!(
        err.contains(
            "0 positions proven, 0 lost, 0 not within the budget, 1 in the tables already"
        ),
        "{err}"
    );
    // A draw has no winner to serve unless told.
    let (ok, _, err) = pawnrace(&["book", "--gaps", "AA", "--out", out_arg]);
    assert!(!ok && err.contains("--side"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A merged run's full proof gives its distance and line to a position
/// the book holds decided only, written the way the book wrote it (here
/// the run proved the file mirror); a position the book lacks is added.
#[test]
fn book_merge_completes_decided_entries_and_adds_new_ones() {
    let dir = common::temp_dir("book-merge");
    let book = dir.join("book.txt");
    let run = dir.join("run.txt");
    std::fs::write(&book, "# a book\n8/p7/8/8/8/8/4P3/8 w - win ? pv e2e4\n").unwrap();
    std::fs::write(
        &run,
        "# run: made by hand\n\
         8/7p/8/8/8/8/3P4/8 w - win 9 pv d2d4 h7h5 d4d5 h5h4 d5d6 h4h3 d6d7 h3h2 d7d8\n\
         8/p7/8/8/8/8/5P2/8 w - win 9 pv f2f4 a7a5 f4f5 a5a4 f5f6 a4a3 f6f7 a3a2 f7f8\n",
    )
    .unwrap();
    let (ok, _, err) = book_merge(&["--check", "1"], &book, &run);
    assert!(ok, "{err}");
    assert!(err.contains("1 positions added to the 1 of"), "{err}");
    assert!(
        err.contains("1 decided ones given their distance: 2 in all"),
        "{err}"
    );
    let text = std::fs::read_to_string(&book).unwrap();
    assert!(
        text.contains(
            "8/p7/8/8/8/8/4P3/8 w - win 9 pv e2e4 a7a5 e4e5 a5a4 e5e6 a4a3 e6e7 a3a2 e7e8\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("8/p7/8/8/8/8/5P2/8 w - win 9 pv f2f4"),
        "{text}"
    );
    assert!(text.contains("# run: made by hand"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A position the compiled-in book already holds (in some part) is left
/// out of the file merged into, so that each position is in one part; a
/// file that gives such a position another value is refused.
#[test]
fn book_merge_leaves_out_what_the_compiled_in_book_holds() {
    let dir = common::temp_dir("book-merge-held");
    let book = dir.join("book.txt");
    let run = dir.join("run.txt");
    let part = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/book/part-1.txt"),
    )
    .unwrap();
    let held = part.lines().find(|l| !l.starts_with('#')).unwrap();
    let new = "8/p7/8/8/8/8/5P2/8 w - win 9 pv f2f4 a7a5 f4f5 a5a4 f5f6 a4a3 f6f7 a3a2 f7f8";
    std::fs::write(&run, format!("# run: made by hand\n{held}\n{new}\n")).unwrap();
    let merge = |file: &std::path::Path| book_merge(&[], &book, file);
    let (ok, _, err) = merge(&run);
    assert!(ok, "{err}");
    assert!(
        err.contains("1 positions left out: the compiled-in book holds them"),
        "{err}"
    );
    let text = std::fs::read_to_string(&book).unwrap();
    assert!(text.contains(new) && !text.contains(held), "{text}");

    let words: Vec<&str> = held.split_whitespace().collect();
    let other = if words[3] == "draw" { "win" } else { "draw" };
    let wrong = dir.join("wrong.txt");
    let line = format!(
        "{} {} {} {other} ? pv {}",
        words[0], words[1], words[2], words[6]
    );
    std::fs::write(&wrong, format!("# run: wrong\n{line}\n")).unwrap();
    let (ok, _, err) = merge(&wrong);
    assert!(!ok && err.contains("the compiled-in book says"), "{err}");
    assert_eq!(std::fs::read_to_string(&book).unwrap(), text);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `book-merge --beyond N` adds only the decided entries a proof from an
/// empty table does not settle within N nodes (a full proof whatever it
/// cost), and refuses a file whose value such a proof contradicts,
/// leaving the book as it was.
#[test]
fn book_merge_beyond_keeps_only_what_a_move_could_not_decide() {
    let dir = common::temp_dir("book-merge-beyond");
    let book = dir.join("book.txt");
    let run = dir.join("run.txt");
    let write = |path: &std::path::Path, text: &str| std::fs::write(path, text).unwrap();
    let easy = "8/p7/8/8/8/8/4P3/8 w - win ? pv e2e4\n";
    // Some hundred thousand nodes from an empty table; a keep-deep-set
    // position, beyond the compiled-in book (whose positions are left out).
    let hard = "8/p1p2p1p/3pp1p1/8/1P3P2/3P4/2P1P1PP/8 w - win ? pv c2c3\n";
    let full = "8/p7/8/8/8/8/5P2/8 w - win 9 pv f2f4 a7a5 f4f5 a5a4 f5f6 a4a3 f6f7 a3a2 f7f8\n";
    write(&book, "# a book\n");
    write(&run, &format!("# run: made by hand\n{easy}{hard}{full}"));
    let merge = |file: &std::path::Path| book_merge(&["--beyond", "1000"], &book, file);
    let (ok, _, err) = merge(&run);
    assert!(ok, "{err}");
    assert!(
        err.contains("2 of 3 new positions kept, 1 decided within 1000 nodes"),
        "{err}"
    );
    let text = std::fs::read_to_string(&book).unwrap();
    assert!(text.contains(hard) && text.contains(full), "{text}");
    assert!(!text.contains(easy), "{text}");

    let wrong = dir.join("wrong.txt");
    write(
        &wrong,
        "# run: wrong\n8/p7/8/8/8/8/3P4/8 w - draw ? pv d2d4\n",
    );
    let (ok, _, err) = merge(&wrong);
    assert!(
        !ok && err.contains("the file says draw, proven win"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&book).unwrap(), text);
    let _ = std::fs::remove_dir_all(&dir);
}
