"""A class's results for the classroom: rosters (roster), LMS gradebooks for Moodle and
Canvas (lms_gradebook), hand-back sheets (handback), the class report (report), and
grade's outputs held together (outputs).

May import: every package below cli.
"""
