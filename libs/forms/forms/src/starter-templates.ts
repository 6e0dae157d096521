/** A built-in starting point: its draft is draft-schema input (ids are minted when a form is made from it). */
export interface StarterTemplate {
  id: string;
  name: string;
  description: string;
  category: 'marketing' | 'feedback' | 'events' | 'hiring' | 'quiz';
  draftSchema: Record<string, unknown>;
}

const choices = (...labels: string[]) => labels.map((label) => ({ label }));

/** Our own small set of starters, each publishable as it is (a test holds them to that). */
export const STARTER_TEMPLATES: readonly StarterTemplate[] = [
  {
    id: 'lead_capture',
    name: 'Lead capture',
    description: 'Collect name, work email, company and what a prospect is interested in.',
    category: 'marketing',
    draftSchema: {
      settings: { name: 'Get in touch' },
      steps: [
        {
          title: 'About you',
          fields: [
            { type: 'text', label: 'Your name', required: true },
            { type: 'email', label: 'Work email', required: true },
            { type: 'text', label: 'Company' },
          ],
        },
        {
          title: 'Your interest',
          fields: [
            { type: 'dropdown', label: 'Team size', options: choices('1-10', '11-50', '51-200', '201+') },
            { type: 'long_text', label: 'What can we help you with?' },
            { type: 'checkbox', label: 'I agree to be contacted about this request.', required: true },
          ],
        },
      ],
    },
  },
  {
    id: 'customer_feedback',
    name: 'Customer feedback',
    description: 'A rating, what went well and what to improve.',
    category: 'feedback',
    draftSchema: {
      settings: { name: 'Tell us how we did' },
      steps: [
        {
          title: 'Your experience',
          fields: [
            { type: 'rating', label: 'How satisfied are you overall?', required: true },
            { type: 'long_text', label: 'What did you like?' },
            { type: 'long_text', label: 'What should we improve?' },
            { type: 'email', label: 'Email (if you would like a reply)' },
          ],
        },
      ],
    },
  },
  {
    id: 'nps_survey',
    name: 'NPS survey',
    description: 'Net Promoter Score with a follow-up question.',
    category: 'feedback',
    draftSchema: {
      settings: { name: 'How likely are you to recommend us?' },
      steps: [
        {
          title: 'Recommendation',
          fields: [
            { type: 'nps', label: 'How likely are you to recommend us to a friend or colleague?', required: true },
            { type: 'long_text', label: 'What is the main reason for your score?' },
          ],
        },
      ],
    },
  },
  {
    id: 'event_registration',
    name: 'Event registration',
    description: 'Attendee details, ticket type and dietary needs.',
    category: 'events',
    draftSchema: {
      settings: { name: 'Event registration' },
      steps: [
        {
          title: 'Attendee',
          fields: [
            { type: 'text', label: 'Full name', required: true },
            { type: 'email', label: 'Email', required: true },
            { type: 'phone', label: 'Phone' },
          ],
        },
        {
          title: 'Attendance',
          fields: [
            { type: 'single_choice', label: 'Ticket', required: true, options: choices('In person', 'Online') },
            { type: 'multiple_choice', label: 'Dietary requirements', options: choices('Vegetarian', 'Vegan', 'Gluten-free', 'None') },
            { type: 'long_text', label: 'Anything else we should know?' },
          ],
        },
      ],
    },
  },
  {
    id: 'job_application',
    name: 'Job application',
    description: 'Contact details, CV upload, links and a short motivation.',
    category: 'hiring',
    draftSchema: {
      settings: { name: 'Job application' },
      steps: [
        {
          title: 'Contact',
          fields: [
            { type: 'text', label: 'Full name', required: true },
            { type: 'email', label: 'Email', required: true },
            { type: 'phone', label: 'Phone' },
          ],
        },
        {
          title: 'Experience',
          fields: [
            { type: 'file_upload', label: 'CV', required: true },
            { type: 'url', label: 'LinkedIn or portfolio' },
            { type: 'long_text', label: 'Why do you want to join us?', required: true },
            { type: 'date', label: 'Earliest start date' },
          ],
        },
      ],
    },
  },
  {
    id: 'product_match_quiz',
    name: 'Product match quiz',
    description: 'Two questions that recommend one of two plans (a match quiz with two endings).',
    category: 'quiz',
    draftSchema: {
      settings: {
        name: 'Which plan fits you?',
        submissions: {
          thankYouScreens: [
            { id: 'tys_starter', title: 'Starter fits you', description: 'Simple and ready in minutes.' },
            { id: 'tys_team', title: 'Team fits you', description: 'Built for working together.' },
          ],
        },
      },
      steps: [
        {
          title: 'About your work',
          fields: [
            { id: 'fld_people', type: 'single_choice', label: 'How many people will use it?', required: true, options: choices('Just me', 'A team') },
            { id: 'fld_goal', type: 'single_choice', label: 'What matters most?', required: true, options: choices('Speed', 'Collaboration') },
          ],
        },
      ],
      quiz: {
        enabled: true,
        type: 'match',
        mode: 'match',
        endings: [
          { id: 'end_starter', screenId: 'tys_starter' },
          { id: 'end_team', screenId: 'tys_team' },
        ],
        mappings: [
          { fieldId: 'fld_people', optionValue: 'Just me', endingId: 'end_starter' },
          { fieldId: 'fld_people', optionValue: 'A team', endingId: 'end_team' },
          { fieldId: 'fld_goal', optionValue: 'Speed', endingId: 'end_starter' },
          { fieldId: 'fld_goal', optionValue: 'Collaboration', endingId: 'end_team' },
        ],
      },
    },
  },
];

export function starterTemplate(id: string): StarterTemplate | undefined {
  return STARTER_TEMPLATES.find((template) => template.id === id);
}
