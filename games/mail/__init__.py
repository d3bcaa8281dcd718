"""Every email: planned as a Notification row before anything is sent, sent once by a task,
its letter rendered in the reader's language at send time; the after-move emails,
delivery reports, the embedded outbox, the seat's email settings.
"""
