"""The ground floor every other part stands on: errors, the warehouse connection and its
lock message, the seed readers and the HTTP retry policy. It imports nothing of the project's."""
