//! The shudu game served in a browser (in progress).
