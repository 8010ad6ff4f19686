//! The scheduler's unit tests: deadlines, jobs of several threads, parking,
//! and untimed work giving way.

use super::*;
use crate::stop::Stop;
use std::thread;

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

#[test]
fn the_earliest_deadlines_get_the_cores() {
    let s = Scheduler::new(2, Arc::default());
    let now = Instant::now();
    let late = s.admit(1, Some(now + ms(5000)));
    let later = s.admit(1, Some(now + ms(9000)));
    assert!(late.run.load(Ordering::SeqCst) && later.run.load(Ordering::SeqCst));
    // Due sooner than both: it takes the cores of the one due last.
    let soon = s.admit(1, Some(now + ms(1000)));
    assert!(soon.run.load(Ordering::SeqCst));
    assert!(late.run.load(Ordering::SeqCst));
    assert!(!later.run.load(Ordering::SeqCst));
    assert_eq!(
        s.load(),
        Load {
            running: 2,
            waiting: 1
        }
    );
    s.leave(&soon);
    assert!(later.run.load(Ordering::SeqCst));
    assert_eq!(
        s.load(),
        Load {
            running: 2,
            waiting: 0
        }
    );
}

#[test]
fn a_job_of_several_threads_takes_as_many_cores() {
    let s = Scheduler::new(2, Arc::default());
    let now = Instant::now();
    let wide = s.admit(4, Some(now + ms(1000)));
    let narrow = s.admit(1, Some(now + ms(2000)));
    assert!(wide.run.load(Ordering::SeqCst));
    assert!(!narrow.run.load(Ordering::SeqCst));
    assert_eq!(demand(&s.lock()), 3);
    assert_eq!(narrow.share(), Some((2, 3)));
    s.leave(&wide);
    assert!(narrow.run.load(Ordering::SeqCst));
}

#[test]
fn a_parked_job_goes_on_at_its_deadline_or_its_stop() {
    let s = Scheduler::new(1, Arc::default());
    let now = Instant::now();
    // Due first, it keeps the core past the second job's deadline
    // (its thread is slow to see its own).
    let first = s.admit(1, Some(now + ms(20)));
    let second = s.admit(1, Some(now + ms(40)));
    assert!(first.run.load(Ordering::SeqCst));
    assert!(!second.run.load(Ordering::SeqCst));
    let stop = Stop::new();
    stop.pace_with(second.clone());
    assert!(!stop.poll());
    let waited = now.elapsed();
    assert!(waited >= ms(40) && waited < ms(5000), "{waited:?}");
    // Due now, it went before the job that was due sooner but has not
    // seen its own deadline yet.
    assert!(second.run.load(Ordering::SeqCst));
    assert_eq!(second.share(), Some((1, usize::MAX)));
    assert_eq!(
        s.load(),
        Load {
            running: 1,
            waiting: 1
        }
    );
    s.leave(&second);

    // Raised from another thread, a parked job goes on at once.
    let third = s.admit(1, None);
    assert!(!third.run.load(Ordering::SeqCst));
    let stop = Arc::new(Stop::new());
    stop.pace_with(third.clone());
    let raiser = {
        let stop = Arc::clone(&stop);
        thread::spawn(move || {
            thread::sleep(ms(20));
            stop.raise();
        })
    };
    assert!(stop.poll());
    raiser.join().unwrap();
    for ticket in [first, third] {
        s.leave(&ticket);
    }
    assert_eq!(s.load(), Load::default());
}

#[test]
fn untimed_work_gives_way_after_its_slice_and_an_idle_job_holds_nothing() {
    let s = Scheduler::new(1, Arc::default());
    let untimed = s.admit(1, None);
    let timed = s.admit(1, Some(Instant::now() + ms(60_000)));
    assert!(untimed.run.load(Ordering::SeqCst));
    thread::sleep(UNTIMED_SLICE + ms(5));
    // Its next virtual deadline is a second away; the timed job's is a
    // minute away, so the untimed job keeps the core.
    untimed.pause_point(&AtomicBool::new(false));
    assert!(untimed.run.load(Ordering::SeqCst));
    let soon = s.admit(1, Some(Instant::now() + ms(500)));
    assert!(soon.run.load(Ordering::SeqCst));
    assert!(!untimed.run.load(Ordering::SeqCst));
    s.leave(&soon);
    untimed.idle();
    assert!(timed.run.load(Ordering::SeqCst));
    assert_eq!(
        s.load(),
        Load {
            running: 1,
            waiting: 0
        }
    );
    s.leave(&untimed);
    s.leave(&timed);
}
